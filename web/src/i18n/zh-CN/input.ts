// Simplified Chinese strings of the input room; the English ones are in ../input.ts.
// Loaded with every other zh-CN dictionary in one lazy chunk (./all.ts).
import { register } from '../index';

register('input', {
  'zh-CN': {
    'input.notice.line': '第 {line} 行',
    'input.notice.file': '文件',
    'input.notice.group': '{count} 个 {kind} 对象（第 {lines} 行）',
    'input.loaded.notices': '已加载 {name}（下方有 {count} 条提示）。',
  },
});
