// "Predict the next step": before a decision is shown, the learner guesses
// it. questionFor picks the decision of a step worth asking about; the
// Predictor holds the math back until the guess is in, then marks it.
import { h, setText } from '../dom';
import { t } from '../i18n';
import '../i18n/present-modes';
import type { Player } from '../player/player';
import type { TraceRecord, View } from '../types';
import { list } from '../types';

/** A question about one decision of a step. */
export interface Question {
  /** The record type asked about. */
  type: 'NewRSMath' | 'OldScaleDownMath' | 'ManageDecision';
  /** i18n key of the prompt and its parameters. */
  prompt: string;
  params: Record<string, string | number>;
  /** The number the controller chose. */
  answer: number;
}

type Obj = Record<string, unknown>;
const num = (o: Obj, k: string) => (typeof o[k] === 'number' ? (o[k] as number) : 0);

/**
 * The question for a step's records: the new ReplicaSet's size, else how
 * many old replicas are removed, else how many pods a ReplicaSet creates
 * (+) or deletes (−). Null when the step made none of these decisions.
 */
export function questionFor(records: readonly TraceRecord[]): Question | null {
  const data = (type: string) => records.find((r) => r.type === type)?.data as Obj | undefined;
  const nrs = data('NewRSMath');
  if (nrs && nrs.strategy === 'RollingUpdate' && !nrs.error) {
    const rec = data('ReconcileNewMath');
    return { type: 'NewRSMath', prompt: 'predict.questionNewRS', params: { name: typeof rec?.newRS === 'string' ? rec.newRS : '', now: num(nrs, 'newRSReplicas') }, answer: num(nrs, 'result') };
  }
  const old = data('OldScaleDownMath');
  if (old && old.stopped !== 'no old pods') return { type: 'OldScaleDownMath', prompt: 'predict.questionOld', params: {}, answer: num(old, 'totalScaledDown') };
  const m = data('ManageDecision');
  if (m && (m.action === 'create' || m.action === 'delete' || m.action === 'nothing')) {
    const n = num(m, 'count');
    return { type: 'ManageDecision', prompt: 'predict.questionManage', params: { name: String(m.key ?? '') }, answer: m.action === 'create' ? n : m.action === 'delete' ? -n : 0 };
  }
  return null;
}

/** Predict mode on a player: asks, holds the math back, marks the guess. */
export class Predictor {
  on = false;
  private answered = new Map<number, boolean>();
  private pending: { step: number; q: Question } | null = null;
  private right = 0;

  constructor(private readonly player: Player, private readonly box: HTMLElement, private readonly button: HTMLElement) {
    player.holdMath = (v) => this.hold(v);
    player.onRender.push((v) => this.show(v));
    player.onLoad.push(() => {
      // A new run (a reset too): a new round of questions and a new score.
      this.answered.clear();
      this.right = 0;
      this.pending = null;
    });
    button.addEventListener('click', () => this.toggle());
  }

  toggle(): void {
    this.on = !this.on;
    delete this.box.dataset.asking;
    this.button.setAttribute('aria-pressed', String(this.on));
    this.pending = null;
    this.player.render();
  }

  private hold(v: View): boolean {
    if (!this.on || this.answered.has(v.step)) return false;
    const q = questionFor(list(v.records));
    if (!q) return false;
    this.pending = { step: v.step, q };
    this.player.pause();
    return true;
  }

  private show(v: View): void {
    document.body.classList.toggle('predicting', this.pending?.step === v.step);
    const last = this.answered.get(v.step);
    if (!this.on) {
      this.box.hidden = true;
      return;
    }
    this.box.hidden = false;
    const score = h('p', { class: 'muted small', text: `${t('predict.hint')} ${t('predict.score', { right: this.right, total: this.answered.size })}` });
    if (this.pending?.step === v.step) {
      // Re-renders of the same step (samples arriving) keep what was typed.
      if (this.box.dataset.asking === String(v.step) && this.box.querySelector('#predict-guess')) return;
      this.box.dataset.asking = String(v.step);
      const q = this.pending.q;
      const input = h('input', { id: 'predict-guess', type: 'number', step: 1, 'aria-label': t('predict.yourGuess') });
      const form = h('form', { class: 'predict-form' }, h('label', {}, `${t('predict.yourGuess')} `, input), h('button', { type: 'submit', id: 'predict-reveal', text: t('predict.reveal') }));
      form.addEventListener('submit', (e) => {
        e.preventDefault();
        if (input.value.trim() === '') return;
        this.reveal(v.step, q, Number(input.value));
      });
      this.box.replaceChildren(h('p', { class: 'predict-q', text: t(q.prompt, q.params) }), form, score);
      input.focus({ preventScroll: true });
      return;
    }
    delete this.box.dataset.asking;
    const verdict = this.box.dataset.step === String(v.step) && last !== undefined ? this.box.querySelector('.verdict') : null;
    this.box.replaceChildren(...(verdict ? [verdict] : []), score);
  }

  private reveal(step: number, q: Question, guess: number): void {
    const ok = guess === q.answer;
    this.answered.set(step, ok);
    if (ok) this.right++;
    this.pending = null;
    this.box.dataset.step = String(step);
    const verdict = h('p', { class: `verdict ${ok ? 'ok' : 'bad'}`, 'data-ok': String(ok) });
    setText(verdict, `${ok ? '✓' : '✗'} ${ok ? t('predict.right', { answer: q.answer }) : t('predict.wrong', { guess, answer: q.answer })}`);
    this.box.replaceChildren(verdict);
    this.player.render();
  }
}
