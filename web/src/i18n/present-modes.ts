// Strings of the presenter and predict modes (web/src/present/*). Each mode
// is a lazy chunk that imports this file, so these stay out of the first load
// (the buttons that start them are in ./present.ts).
import { register } from './index';

const en: Record<string, string> = {
  'present.noteCount': 'note {n} of {total}',
  'present.noNotes': 'This scenario has no notes; Space or PageDown steps to the next sync.',
  'present.beforeFirst': '{total} notes; PageDown goes to the next.',
  'present.beforeFirstOne': 'One note; PageDown goes to it.',
  'present.noteFrom': 'about step {step}',
  'present.lastNote': 'This is the last note; PageDown now steps by sync.',
  'present.searching': 'Looking for the next note…',
  'present.notFound': 'No further note in this run.',
  'notes.beforeFirst': '{total} notes tell the story of this run; Next note goes to the first.',
  'notes.beforeFirstOne': 'One note tells the story of this run; Next note goes to it.',
  'notes.lastNote': 'This is the last note.',
  'notes.hide': 'Hide notes',
  'notes.show': 'Show notes',
  'predict.questionNewRS': 'The Deployment controller is about to size the new ReplicaSet {name} (now {now} replicas). How many replicas will it have after this sync?',
  'predict.questionOld': 'The Deployment controller may now scale old ReplicaSets down. How many old replicas will it remove in this sync?',
  'predict.questionManage': 'The ReplicaSet controller syncs {name}. How many pods will it create (positive) or delete (negative)?',
  'predict.yourGuess': 'Your guess',
  'predict.reveal': 'Reveal',
  'predict.right': 'Right: {answer}.',
  'predict.wrong': 'Not quite: you said {guess}, the controller chose {answer}.',
  'predict.score': 'Score: {right} of {total}',
  'predict.hint': 'Predict mode: before a decision is shown, guess it.',
};

register('presentModes', { en });
