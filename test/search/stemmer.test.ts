/** Stems: Porter plus our rules for the KJV's archaic verb endings. */
import t, { type Test } from 'tap'
import { modernForm, stem } from '../../src/search/stemmer.js'

/** Asserts that every word of a group has the same stem as the first. */
function sameStem(t: Test, words: readonly string[]): void {
  const [first = '', ...rest] = words
  for (const word of rest) t.equal(stem(word), stem(first), `${word} ~ ${first}`)
}

t.test('archaic endings stem like the modern forms', async (t) => {
  sameStem(t, ['believe', 'believeth', 'believest', 'believed', 'believedst', 'believes', 'believing'])
  sameStem(t, ['love', 'loveth', 'lovest', 'loved', 'lovedst', 'loves'])
  sameStem(t, ['come', 'cometh', 'comest', 'comes'])
  sameStem(t, ['sit', 'sitteth', 'sittest', 'sitting'])
  sameStem(t, ['flee', 'fleeth'])
  sameStem(t, ['agree', 'agreeth', 'agreed'])
  sameStem(t, ['carry', 'carrieth', 'carriest', 'carried'])
  sameStem(t, ['judge', 'judgeth', 'judgest', 'judged'])
  sameStem(t, ['know', 'knoweth', 'knowest', 'knows'])
  sameStem(t, ['did', 'didst'])
  sameStem(t, ['said', 'saidst'])
})

t.test('irregular archaic forms', async (t) => {
  sameStem(t, ['has', 'hath'])
  sameStem(t, ['have', 'hast'])
  sameStem(t, ['does', 'doth', 'doeth'])
  sameStem(t, ['do', 'dost', 'doest'])
  sameStem(t, ['says', 'saith', 'say', 'sayest'])
  sameStem(t, ['go', 'goeth', 'goest'])
  sameStem(t, ['see', 'seeth', 'seest'])
  sameStem(t, ['shall', 'shalt'])
  sameStem(t, ['will', 'wilt'])
  sameStem(t, ['can', 'canst'])
})

t.test('words whose -est or -eth is their own are left alone', async (t) => {
  for (const word of ['priest', 'forest', 'harvest', 'request', 'honest', 'manifest', 'tempest', 'teeth', 'midst', 'rest', 'chest', 'twentieth']) {
    t.equal(modernForm(word), word, word)
  }
  sameStem(t, ['priest', 'priests'])
  sameStem(t, ['request', 'requested', 'requests'])
  t.not(stem('twentieth'), stem('twenty'), 'an ordinal is not its number')
  t.not(stem('priest'), stem('pried'))
})

t.test('ordinary English stems (Porter)', async (t) => {
  sameStem(t, ['bless', 'blessed', 'blessing', 'blesseth'])
  sameStem(t, ['shepherd', 'shepherds'])
  t.equal(stem('the'), 'the')
  t.equal(stem('lord'), 'lord')
})
