// Strings of the presenter and predict buttons (index.html) and of the
// keyboard help. What the modes themselves say is in ./present-modes.ts,
// loaded with them.
import { register } from './index';

const en: Record<string, string> = {
  'present.present': 'Present',
  'present.predict': 'Predict',
  'present.prevNote': '◀ Previous note',
  'present.nextNote': 'Next note ▶',
  'present.exit': 'Exit presenter',
  'keys.stepEvent': 'step one event',
  'keys.stepSync': 'step to the next controller sync',
  'keys.settle': 'settle (run until nothing is due)',
  'keys.back': 'back one step',
  'keys.togglePlay': 'play / pause',
  'keys.first': 'go to step 0',
  'keys.last': 'go to the last computed step',
  'keys.reset': 'reset (reload the scenario)',
  'keys.help': 'show this help',
  'keys.close': 'close the help',
  'keys.loadYaml': 'load the YAML being edited (in the editor)',
  'keys.everywhere': 'Outside presenter mode',
  'keys.presenterHeading': 'Presenter mode (a clicker sends PageDown / PageUp)',
  'keys.presentNext': 'next controller sync (Space pauses while playing)',
  'keys.presentBack': 'back to the previous sync',
  'keys.presentNote': 'next / previous note (a sync when no note is left that way)',
  'keys.presentExit': 'leave presenter mode',
  'keys.present': 'presenter: Space / → next sync, ← back, PageDown / PageUp next / previous note, Esc exit',
};

export const presentStrings = { en };
register('present', presentStrings);
