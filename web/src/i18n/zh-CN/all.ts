// Every room's Simplified Chinese strings. index.ts imports this module
// lazily (one chunk) when the locale becomes zh-CN, so an English first load
// does not download them. A room adds its file here and its English file to
// ../all.ts.
import './player';
import './present';
import './math';
import './embed';
import './share';
import './whatif';
import './input';
