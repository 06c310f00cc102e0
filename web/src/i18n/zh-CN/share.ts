// Simplified Chinese strings of the share room; the English ones are in ../share.ts.
// Loaded with every other zh-CN dictionary in one lazy chunk (./all.ts).
import { register } from '../index';

register('share', {
  'zh-CN': {
    'share.button': '分享',
    'share.title': '分享此模拟',
    'share.link': '链接（场景、随机种子、你的操作和当前步骤）',
    'share.linkWithComparison': '链接（场景、随机种子、你的操作、当前步骤和“假如”比较）',
    'share.shortLink': '短链接',
    'share.copy': '复制',
    'share.copied': '已复制。',
    'share.close': '关闭',
    'share.making': '正在生成链接…',
    'share.shortFailed': '无法生成短链接：{message}',
    'share.tooLong': '此链接较长（{length} 个字符），部分聊天应用会截断长链接。',
    'share.corrupt': '此分享链接已损坏，无法打开（{reason}）。现在显示默认场景。',
    'share.newer': '此分享链接由更新版本的 Rollout Lab 生成（格式 {version}），请刷新或更新页面。现在显示默认场景。',
    'share.restoreFailed': '无法完整恢复分享的模拟：{message}',
    'share.fetchFailed': '无法获取分享的场景 {id}：{message}',
    'share.restored': '已打开分享的模拟，位于第 {step} 步。',
    'share.restoredWithComparison': '已打开分享的模拟，位于第 {step} 步，附带其“假如”比较。',
    'share.unsupported': '此浏览器无法压缩分享链接（缺少 CompressionStream）。',
  },
});
