// Simplified Chinese strings of the present room; the English ones are in ../present.ts.
// Loaded with every other zh-CN dictionary in one lazy chunk (./all.ts).
import { register } from '../index';

export const zh: Record<string, string> = {
  'present.present': '演示',
  'present.predict': '预测',
  'present.prevNote': '◀ 上一条注释',
  'present.nextNote': '下一条注释 ▶',
  'present.exit': '退出演示',
  'present.noteCount': '第 {n} 条注释，共 {total} 条',
  'present.noNotes': '此场景没有注释；按空格前进到下一次同步。',
  'present.beforeFirst': '共 {total} 条注释；按 PageDown 前往下一条。',
  'present.searching': '正在查找下一条注释…',
  'present.notFound': '本次运行中没有更多注释。',
  'predict.questionNewRS': 'Deployment 控制器即将确定新 ReplicaSet {name} 的大小（当前 {now} 个副本）。本次同步之后它会有多少个副本？',
  'predict.questionOld': 'Deployment 控制器现在可能缩容旧的 ReplicaSet。本次同步会移除多少个旧副本？',
  'predict.questionManage': 'ReplicaSet 控制器正在同步 {name}。它会创建（正数）或删除（负数）多少个 Pod？',
  'predict.yourGuess': '你的猜测',
  'predict.reveal': '揭晓',
  'predict.right': '答对了：{answer}。',
  'predict.wrong': '不对：你猜的是 {guess}，控制器的选择是 {answer}。',
  'predict.score': '得分：{right} / {total}',
  'predict.hint': '预测模式：在决策显示之前先猜一猜。',
  'keys.stepEvent': '单步执行一个事件',
  'keys.stepSync': '前进到下一次控制器同步',
  'keys.settle': '运行到稳定（直到没有待处理的事件）',
  'keys.back': '后退一步',
  'keys.togglePlay': '播放 / 暂停',
  'keys.first': '回到第 0 步',
  'keys.last': '前往已计算的最后一步',
  'keys.reset': '重置（重新加载场景）',
  'keys.help': '显示此帮助',
  'keys.close': '关闭帮助',
  'keys.present': '演示模式：空格 / → 下一次同步，← 后退，PageDown / PageUp 下一条 / 上一条注释，Esc 退出',
};

register('present', { 'zh-CN': zh });
