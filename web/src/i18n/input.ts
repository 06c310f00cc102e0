// Strings of the "input" room: notices of a loaded scenario file.
import { register } from './index';

register('input', {
  en: {
    'input.notice.line': 'line {line}',
    'input.notice.file': 'file',
    'input.notice.group': '{count} {kind} objects (lines {lines})',
    'input.loaded.notices': 'Loaded {name} ({count} notice(s) below).',
  },
});
