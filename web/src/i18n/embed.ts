// Strings of the embedded player (web/src/embed/*).
import { register } from './index';

register('embed', {
  en: {
    'embed.loading': 'Loading the simulation engine…',
    'embed.loadingScenario': 'Loading the scenario…',
    'embed.failed': 'The player could not start: {message}',
    'embed.noScenario': 'No scenario given: set scenario="<library id or URL>" or put the YAML inside the element.',
    'embed.unknownScenario': 'There is no built-in scenario "{id}". The built-in ones: {ids}.',
    'embed.crossOrigin': 'Scenario URLs must be on the same site as the player ({url}).',
    'embed.fetchFailed': 'Cannot fetch the scenario {url}: {message}',
    'embed.invalid': 'The scenario has errors: {message}',
    'embed.back': '◀ Back',
    'embed.step': 'Step ▶',
    'embed.play': 'Play',
    'embed.pause': 'Pause',
    'embed.reset': 'Restart',
    'embed.scrubber': 'Step',
    'embed.stepLabel': 'step {step} / {max}',
    'embed.controls': 'Player controls',
    'embed.player': 'Rollout Lab player: {name}',
    'embed.open': 'Open in Rollout Lab',
    'embed.panel.cluster': 'Cluster',
    'embed.panel.chart': 'Replicas over time',
    'embed.panel.math': 'Math of this step',
    'embed.panel.trace': 'Trace of this step',
    'embed.panel.queues': 'Workqueues',
    'embed.panel.expectations': 'Expectations',
    'embed.keys': 'Keys while the player has focus: ← → step, space play/pause.',
  },
});
