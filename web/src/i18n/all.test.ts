import { describe, expect, it } from 'vitest';
import './all';
import './whatif'; // the What if? room's English strings load with the room
import './embed'; // and the embedded player's with its bundle
import './present-modes'; // and the presenter's and predict mode's with theirs
import './share-dialog'; // and the share dialog's with it
import './explain'; // and the panels' explanations when one is first opened
import './math'; // and the math panel's formatting when it loads after the first step
import './zh-CN/all';
import { missingKeys } from './index';

describe('every room is translated', () => {
  it('has every key in English and Simplified Chinese', () => {
    expect(missingKeys()).toEqual([]);
  });
});
