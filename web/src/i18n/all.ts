// Imports every room's dictionary so that t() knows all keys. A room adds
// its file here (one import line per room) and nowhere else.
import './player';
import './present';
import './math';
import './embed';
import './share';
import './whatif';
import './input';
