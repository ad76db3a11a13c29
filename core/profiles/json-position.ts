/**
 * Where a JSON text goes wrong, as line and column, with what was expected there: JSON.parse says
 * so only sometimes ("at position 8", or just "Unexpected token"), and a person editing a profile
 * needs the place. A small strict scanner, used only after JSON.parse has refused the text.
 */

export interface JsonFault {
  line: number;
  column: number;
  expected: string;
}

import { JSON_EXPECTED as EXPECTED } from './words.ts';

class Fault extends Error {
  constructor(readonly offset: number, readonly expected: string) {
    super(expected);
  }
}

/** The first fault of `text` (1-based line and column), or null when it is valid JSON. */
export function jsonFault(text: string): JsonFault | null {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const fail = (expected: string): never => {
    throw new Fault(i, expected);
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail(EXPECTED.value);
  };
  const string = () => {
    i++;
    for (;;) {
      if (i >= text.length) fail(EXPECTED.closingQuote);
      const c = text.charCodeAt(i);
      if (c === 0x22) return void i++;
      if (c < 0x20) fail(EXPECTED.noControl);
      if (c === 0x5c) {
        i++;
        if (text[i] === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) i += 5;
        else if (i < text.length && '"\\/bfnrt'.includes(text[i]!)) i++;
        else fail(EXPECTED.escape);
      } else i++;
    }
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!match) fail(EXPECTED.value);
    i += match![0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') return object();
    if (c === '[') return array();
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    return number();
  };
  const object = () => {
    i++;
    ws();
    if (text[i] === '}') return void i++;
    for (;;) {
      ws();
      if (text[i] !== '"') fail(EXPECTED.propertyName);
      string();
      ws();
      if (text[i] !== ':') fail(EXPECTED.colon);
      i++;
      value();
      ws();
      if (text[i] === ',') i++;
      else if (text[i] === '}') return void i++;
      else fail(EXPECTED.objectNext);
    }
  };
  const array = () => {
    i++;
    ws();
    if (text[i] === ']') return void i++;
    for (;;) {
      value();
      ws();
      if (text[i] === ',') i++;
      else if (text[i] === ']') return void i++;
      else fail(EXPECTED.arrayNext);
    }
  };
  try {
    value();
    ws();
    if (i < text.length) fail(EXPECTED.end);
    return null;
  } catch (error) {
    if (!(error instanceof Fault)) throw error;
    const before = text.slice(0, error.offset).split('\n');
    return { line: before.length, column: before[before.length - 1]!.length + 1, expected: error.expected };
  }
}
