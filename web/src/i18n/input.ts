// Strings of the "input" room: notices of a loaded scenario file.
import { register } from './index';

register('input', {
  en: {
    'input.notice.line': 'line {line}',
    'input.notice.file': 'file',
    'input.loaded.notices': 'Loaded {name} ({count} notice(s) below).',
  },
  'zh-CN': {
    'input.notice.line': '第 {line} 行',
    'input.notice.file': '文件',
    'input.loaded.notices': '已加载 {name}（下方有 {count} 条提示）。',
  },
});
