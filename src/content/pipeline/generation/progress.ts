/**
 * Progress and reports of a generation run, written to a stream passed in (the CLI gives
 * stderr, so that stdout carries only the final report). On a terminal a one-line bar is
 * redrawn in place with `\r`; elsewhere (a log file, CI) a plain line is written now and
 * then, because carriage returns make logs unreadable.
 */
import type { GenerationEvent, GenerationPlan, GenerationReport } from './generate.service.js'

/** Display settings; the defaults suit a person watching a terminal. */
export interface ProgressOptions {
  /** Redraw in place; default: the stream's own isTTY. */
  readonly tty?: boolean
  /** Least time between two plain lines when not on a terminal (default 10 s). */
  readonly lineIntervalMs?: number
  /** Least time between two redraws on a terminal (default 200 ms). */
  readonly redrawMs?: number
  readonly now?: () => number
}

/** 1234 → "1,234". */
export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US')
}

/** 1234 → "1.2k", 2500000 → "2.5M". */
export function formatTokens(n: number): string {
  if (n < 1000) return String(Math.round(n))
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`
  return `${(n / 1_000_000).toFixed(n < 10_000_000 ? 2 : 1)}M`
}

/** 200_000 → "3m 20s", 7_500_000 → "2h 05m". */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000))
  if (seconds < 60) return `${seconds}s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`
}

const BAR_WIDTH = 24

/** Follows a run's events and shows its progress. */
export class GenerationProgress {
  private readonly tty: boolean
  private readonly lineIntervalMs: number
  private readonly redrawMs: number
  private readonly now: () => number
  private startedAt = 0
  private total = 0
  private done = 0
  private failed = 0
  private retries = 0
  private promptTokens = 0
  private completionTokens = 0
  private lastDraw = 0
  private drawn = false
  private timer: NodeJS.Timeout | undefined

  constructor(
    private readonly stream: NodeJS.WritableStream,
    options: ProgressOptions = {},
  ) {
    this.tty = options.tty ?? (stream as { isTTY?: boolean }).isTTY === true
    this.lineIntervalMs = options.lineIntervalMs ?? 10_000
    this.redrawMs = options.redrawMs ?? 200
    this.now = options.now ?? Date.now
  }

  /** Feed every event of the run here (it is bound, so it can be passed as a callback). */
  readonly handle = (event: GenerationEvent): void => {
    switch (event.type) {
      case 'start':
        this.startedAt = this.now()
        this.total = event.toGenerate
        this.write(
          `${formatCount(event.selected)} verses selected, ${formatCount(event.skipped)} skipped (already generated), ${formatCount(event.toGenerate)} to generate`,
        )
        if (this.total > 0) {
          // Keeps the rate and ETA moving while every request waits on a slow server.
          this.timer = setInterval(() => this.draw(false), this.tty ? 1000 : this.lineIntervalMs)
          this.timer.unref()
          this.draw(true)
        }
        return
      case 'done':
        this.done++
        break
      case 'failed':
        this.failed++
        break
      case 'retry':
        this.retries++
        break
      case 'usage':
        this.promptTokens += event.promptTokens
        this.completionTokens += event.completionTokens
        break
      case 'stopping':
        this.write(event.message)
        break
    }
    this.draw(false)
  }

  /** Draws the last state and ends the bar's line; call once the run has returned. */
  finish(): void {
    if (this.timer !== undefined) clearInterval(this.timer)
    this.timer = undefined
    if (this.total > 0) this.draw(true)
    if (this.tty && this.drawn) this.stream.write('\n')
    this.drawn = false
  }

  /** The status line: bar, counts, rate, ETA, tokens. */
  line(): string {
    const finished = this.done + this.failed
    const share = this.total === 0 ? 1 : finished / this.total
    const filled = Math.round(share * BAR_WIDTH)
    const elapsed = Math.max(1, this.now() - this.startedAt)
    const rate = finished / (elapsed / 1000)
    const eta = rate > 0 ? formatDuration(((this.total - finished) / rate) * 1000) : '?'
    return [
      `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}]`,
      `${String(Math.floor(share * 100)).padStart(3)}%`,
      `${formatCount(finished)}/${formatCount(this.total)}`,
      `done ${formatCount(this.done)}`,
      `failed ${formatCount(this.failed)}`,
      `retries ${formatCount(this.retries)}`,
      `${rate.toFixed(rate < 10 ? 2 : 1)} verses/s`,
      `ETA ${eta}`,
      `tokens ${formatTokens(this.promptTokens)} in / ${formatTokens(this.completionTokens)} out`,
    ].join('  ')
  }

  private draw(force: boolean): void {
    if (this.total === 0) return
    const now = this.now()
    if (!force && now - this.lastDraw < (this.tty ? this.redrawMs : this.lineIntervalMs)) return
    this.lastDraw = now
    // \x1b[K clears what a longer previous line left on the right.
    this.stream.write(this.tty ? `\r${this.line()}\x1b[K` : `${this.line()}\n`)
    this.drawn = true
  }

  /** A message on a line of its own, without breaking the bar. */
  private write(message: string): void {
    this.stream.write(this.tty && this.drawn ? `\r\x1b[K${message}\n` : `${message}\n`)
    if (this.tty && this.drawn) this.stream.write(`\r${this.line()}\x1b[K`)
  }
}

/** The final report of a run, as lines. */
export function formatReport(report: GenerationReport): string[] {
  const unit = report.target ?? 'verses'
  const lines = [
    `Generation report: ${unit === 'narratives' ? 'narratives, ' : ''}${report.style} (${report.promptVersion}), model ${report.model}, ${formatDuration(report.elapsedMs)}`,
    `  selected:     ${formatCount(report.selected)} ${unit}`,
    `  skipped:      ${formatCount(report.skipped)} already generated with ${report.promptVersion}`,
    `  generated:    ${formatCount(report.done)} of ${formatCount(report.toGenerate)}`,
    `  failed:       ${formatCount(report.failed)} (not stored; the next run tries them again)`,
  ]
  if (report.interrupted + report.notStarted > 0) {
    lines.push(
      `  not finished: ${formatCount(report.interrupted + report.notStarted)} (${formatCount(report.interrupted)} in flight when stopped, ${formatCount(report.notStarted)} not started; the next run does them)`,
    )
  }
  lines.push(
    `  retries:      ${formatCount(report.transportRetries)} requests (429, 5xx, timeouts), ${formatCount(report.answerRetries)} answers (invalid JSON or content)`,
    `  tokens:       ${formatCount(report.promptTokens)} in, ${formatCount(report.completionTokens)} out (as reported by the provider)`,
  )
  if (report.failures.length > 0) {
    lines.push('Failures by reason:')
    for (const group of report.failures) {
      lines.push(`  ${formatCount(group.count).padStart(6)}  ${group.reason}`)
      for (const example of group.examples)
        lines.push(`          ${example.slug}: ${example.detail.length > 300 ? `${example.detail.slice(0, 299)}…` : example.detail}`)
    }
  }
  if (report.fatal !== undefined) lines.push(`Stopped: ${report.fatal}`)
  else if (report.aborted)
    lines.push(
      `Stopped by request (Ctrl-C): every stored ${unit === 'narratives' ? 'narrative' : 'verse'} is complete; run the same command again to continue.`,
    )
  return lines
}

/** A dry run's output: the first prompt and the token estimate, as lines. */
export function formatPlan(plan: GenerationPlan, model: string | undefined): string[] {
  const unit = plan.target ?? 'verses'
  const one = unit === 'narratives' ? 'narrative' : 'verse'
  const lines = [
    `Dry run: ${unit === 'narratives' ? 'narratives, ' : ''}${plan.style} (${plan.promptVersion})${model === undefined ? '' : `, model ${model}`}; nothing is sent to the provider.`,
    `  selected:    ${formatCount(plan.selected)} ${unit}`,
    `  skipped:     ${formatCount(plan.skipped)} already generated with ${plan.promptVersion}`,
    `  to generate: ${formatCount(plan.toGenerate)} ${unit}`,
  ]
  if (plan.first !== undefined) {
    lines.push('', `First request (${plan.first.slug}):`)
    for (const message of plan.first.messages) lines.push(`----- ${message.role} -----`, message.content)
    lines.push('-----')
  }
  const perVerse = (n: number): string => (plan.toGenerate === 0 ? '0' : formatCount(n / plan.toGenerate))
  lines.push(
    '',
    `Token estimate (an estimate: characters / 4 of the prompt, the JSON schema and a typical answer; retries not included):`,
    `  prompt:  ${formatCount(plan.estimate.promptTokens)} tokens (about ${perVerse(plan.estimate.promptTokens)} per ${one})`,
    `  answers: ${formatCount(plan.estimate.completionTokens)} tokens (about ${perVerse(plan.estimate.completionTokens)} per ${one})`,
    "  Multiply by your provider's prices per token for a cost estimate.",
  )
  return lines
}
