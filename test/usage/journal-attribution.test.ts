/**
 * The journal line with an attribution (counted MCP calls): old lines still read, new lines
 * round-trip, separators in a client name cannot break a line, and a journal left by a crash
 * replays its attributions into the attribution tables exactly once, with the ledger.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { KeysRepository } from '../../src/keys/keys.repository.js'
import { parseJournal, UsageJournal } from '../../src/usage/usage.journal.js'
import { UsageRepository } from '../../src/usage/usage.repository.js'
import { UsageService } from '../../src/usage/usage.service.js'
import { availableKinds, openTestDatabase } from '../helpers/database.js'

const KEY = '00000000-0000-4000-8000-0000000000a1'
const silent = { error: () => undefined, info: () => undefined }

t.test('line format', async (t) => {
  const text = [
    `1\t${KEY}\t2026-11\tverse\tfaithful`,
    `2\t${KEY}\t2026-11\tmcp\tcasual\tclaude-ai/0.1.0\tget_passage\t43003016,43003017`,
    `3\t${KEY}\t2026-11\tmcp\tfaithful\tnode\tsearch_scripture\t`,
    `4\t${KEY}\t2026-11\tmcp\tfaithful\tnode\tget_verse\t43003016,x`,
    `5\t${KEY}\t2026-11\tmcp\tfaithful\tnode\tget_verse`,
    `6\t${KEY}\t2026-11\tmcp\tfaithful\tnode\tget_verse\t1\t`,
    `7\t${KEY}\t2026-11\tverse\tfaithful\textra`,
    `8\t${KEY}\t2026-11\tmcp\tall\tcut-off`,
  ].join('\n')
  const entries = parseJournal(text)
  t.same(
    entries,
    [
      { seq: 1, keyId: KEY, period: '2026-11', endpoint: 'verse', style: 'faithful' },
      {
        seq: 2,
        keyId: KEY,
        period: '2026-11',
        endpoint: 'mcp',
        style: 'casual',
        attribution: { client: 'claude-ai/0.1.0', tool: 'get_passage', verseIds: [43003016, 43003017] },
      },
      { seq: 3, keyId: KEY, period: '2026-11', endpoint: 'mcp', style: 'faithful', attribution: { client: 'node', tool: 'search_scripture', verseIds: [] } },
    ],
    'old lines read; malformed and torn lines are ignored',
  )

  const dir = mkdtempSync(join(tmpdir(), 'pv-journal-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const journal = new UsageJournal(dir)
  await journal.append(KEY, '2026-11', 'verse', 'all')
  await journal.append(KEY, '2026-11', 'mcp', 'faithful', { client: 'evil\tclient\nname\u0007', tool: 'get_verse', verseIds: [1001001] })
  journal.close()
  const written = readFileSync(join(dir, 'usage.journal'), 'utf8')
  t.equal(written.split('\n').length, 3, 'two lines and the final newline: a tab or newline in a name cannot split a line')
  t.same(
    parseJournal(written).map((e) => e.attribution),
    [undefined, { client: 'evil client name ', tool: 'get_verse', verseIds: [1001001] }],
  )
  const reopened = new UsageJournal(dir)
  t.equal(reopened.backlog(), 2, 'a reopened journal keeps both kinds of line')
  reopened.close()
})

for (const { kind, skip } of availableKinds()) {
  t.test(`a crashed instance's attributions replay exactly once (${kind})`, { skip }, async (t) => {
    const database = await openTestDatabase(kind, { seeded: true })
    t.teardown(() => database.close())
    await new KeysRepository(database.db).insertWithinLimit(
      { id: KEY, accountId: 'a', name: 'k', keyHash: 'a'.repeat(64), prefix: 'pv_test', tier: 'free', allowedDomains: [] },
      25,
    )
    const dir = mkdtempSync(join(tmpdir(), 'pv-replay-'))
    t.teardown(() => rmSync(dir, { recursive: true, force: true }))
    // What a killed instance left: an old-format line, two attributed lines, a torn tail.
    new UsageJournal(dir).close()
    writeFileSync(
      join(dir, 'usage.journal'),
      [
        `1\t${KEY}\t2026-11\tverse\tfaithful\n`,
        `2\t${KEY}\t2026-11\tmcp\tfaithful\tclaude-ai/0.1.0\tget_passage\t43003016,43003017\n`,
        `3\t${KEY}\t2026-11\tmcp\tall\tclaude-ai/0.1.0\tget_verse\t43003016\n`,
        `4\t${KEY}\t2026-11\tmcp\tall\tclaude-ai/0.1.0\tget_ver`,
      ].join(''),
    )
    const repository = new UsageRepository(database.db)
    for (let run = 1; run <= 2; run++) {
      const journal = new UsageJournal(dir)
      const usage = new UsageService(repository, journal, silent)
      t.equal(await usage.recover(), run === 1 ? 3 : 0, `run ${run}: replayed`)
      t.equal(await repository.keyTotal(KEY, '2026-11'), 3)
      t.same(await repository.clientTotals([KEY], '2026-11'), [{ client: 'claude-ai/0.1.0', queries: 2 }])
      t.same(
        (await repository.verseTotals([KEY], '2026-11')).sort((a, b) => a.verseId - b.verseId),
        [
          { verseId: 43003016, serves: 2 },
          { verseId: 43003017, serves: 1 },
        ],
      )
      const summary = await usage.attributions([KEY], '2026-11', 1)
      t.same(summary, { byClient: { 'claude-ai/0.1.0': 2 }, topVerses: [{ verseId: 43003016, serves: 2 }] })
      journal.close()
    }
  })
}
