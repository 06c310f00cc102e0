// Simplified Chinese strings of the embed room; the English ones are in ../embed.ts.
// Loaded with every other zh-CN dictionary in one lazy chunk (./all.ts).
import { register } from '../index';

register('embed', {
  'zh-CN': {
    'embed.loading': '正在加载模拟引擎…',
    'embed.loadingScenario': '正在加载场景…',
    'embed.failed': '播放器无法启动：{message}',
    'embed.noScenario': '未指定场景：请设置 scenario="<内置场景 ID 或 URL>"，或把 YAML 写在元素内。',
    'embed.unknownScenario': '没有名为“{id}”的内置场景。内置场景有：{ids}。',
    'embed.crossOrigin': '场景 URL 必须与播放器同源（{url}）。',
    'embed.fetchFailed': '无法获取场景 {url}：{message}',
    'embed.invalid': '场景有错误：{message}',
    'embed.back': '◀ 后退',
    'embed.step': '前进 ▶',
    'embed.play': '播放',
    'embed.pause': '暂停',
    'embed.reset': '重新开始',
    'embed.scrubber': '步骤',
    'embed.stepLabel': '第 {step} / {max} 步',
    'embed.controls': '播放器控制',
    'embed.player': 'Rollout Lab 播放器：{name}',
    'embed.open': '在 Rollout Lab 中打开',
    'embed.panel.cluster': '集群',
    'embed.panel.chart': '副本数随时间变化',
    'embed.panel.math': '本步的计算',
    'embed.panel.trace': '本步的跟踪记录',
    'embed.panel.queues': '工作队列',
    'embed.panel.expectations': 'Expectations（期望计数）',
    'embed.keys': '播放器获得焦点时可用按键：← → 单步，空格 播放/暂停。',
  },
});
