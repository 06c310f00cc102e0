import { describe, expect, it } from 'vitest';
import './all';
import './whatif'; // the What if? room's English strings load with the room
import './zh-CN/all';
import { missingKeys } from './index';

describe('every room is translated', () => {
  it('has every key in English and Simplified Chinese', () => {
    expect(missingKeys()).toEqual([]);
  });
});
