/**
 * Book introductions, written and reviewed in the repository (`db/content/book-intros.jsonl`,
 * one JSON object per book, checked by scripts/check-book-intros.ts) and held in memory.
 */
import { readFileSync } from 'node:fs'
import type { components } from '../../generated/api-types.js'

export type BookIntroduction = components['schemas']['BookIntroduction']

/**
 * Reads the introductions by book slug.
 * @throws when a line is malformed, so a damaged file stops start-up instead of serving gaps.
 */
export function readBookIntros(path: string): ReadonlyMap<string, BookIntroduction> {
  const intros = new Map<string, BookIntroduction>()
  readFileSync(path, 'utf8')
    .split('\n')
    .forEach((line, index) => {
      if (line.trim() === '') return
      const value = JSON.parse(line) as Record<string, unknown>
      const fields = ['book', 'author', 'date', 'audience', 'setting', 'purpose', 'introduction'] as const
      if (fields.some((f) => typeof value[f] !== 'string' || (value[f] as string).trim() === '')) {
        throw new Error(`${path}:${index + 1}: every field must be a non-empty string`)
      }
      const field = (name: (typeof fields)[number]): string => value[name] as string
      intros.set(field('book'), {
        author: field('author'),
        date: field('date'),
        audience: field('audience'),
        setting: field('setting'),
        purpose: field('purpose'),
        text: field('introduction'),
      })
    })
  return intros
}
