/**
 * Words live apart from logic: every user-facing sentence is in a room's catalog (a `words.ts`,
 * or a `*-words.ts` beside the logic it serves, or a `labels.ts` of short names), keyed by a code
 * and filled with values; logic files hold codes, values and labels only. So a change of wording
 * is never a change of logic, and one cause is worded once.
 *
 * A "sentence" here is a string or template literal whose fixed text is longer than a label
 * (LABEL_CHARS) and reads as words (three or more in a row). The Svelte components are views and
 * may hold their own words; the tests, benches and scripts are not the product.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/hub-process.ts';

/** The logic of the product: every .ts file under these folders. */
const LOGIC_FOLDERS = ['core', 'cli', 'workers', 'signalr', 'hosts', 'src/lib'];
/** A label: the longest fixed text that is still a name for something, not a sentence. */
const LABEL_CHARS = 60;
const CATALOG = /(^|\/)(words|labels|[\w-]+-words)\.ts$/;

function logicFiles(): string[] {
  return LOGIC_FOLDERS.flatMap((folder) =>
    readdirSync(path.join(REPO_ROOT, folder), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
      .map((file) => path.posix.join(folder, file.split(path.sep).join('/'))))
    .filter((file) => !CATALOG.test(file));
}

/** The sentences of one source: each as `file:line: its fixed text`, `{}` where a value goes. */
export function sentencesIn(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    let fixed: string | null = null;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) fixed = node.text;
    else if (ts.isTemplateExpression(node)) fixed = node.head.text + node.templateSpans.map((span) => `{}${span.literal.text}`).join('');
    const isModuleName = node.parent !== undefined && (ts.isImportDeclaration(node.parent) || ts.isExportDeclaration(node.parent));
    if (fixed !== null && !isModuleName && /[A-Za-z']+ [A-Za-z']+ [A-Za-z']+/.test(fixed) && fixed.replaceAll('{}', '').length > LABEL_CHARS) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      found.push(`${file}:${line}: ${fixed.slice(0, 100)}`);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('finding sentences', () => {
  it('finds strings and templates that read as sentences, and leaves labels, imports and comments', () => {
    const text = [
      `import { a } from './a-module-with-a-rather-long-name-that-is-not-words-at-all.ts';`,
      `// a comment that is long enough to be a sentence if it were a string, which it is not`,
      `const label = 'Messages per second';`,
      `const said = 'The hub closed every connection before the run ended, so nothing arrived.';`,
      'const filled = `The hub closed ${n} connections before the run ended, so ${m} never arrived.`;',
      `const pattern = /^[a-z0-9-]+\\.example\\.com\\/with\\/a\\/long\\/path\\/that\\/is\\/no\\/sentence$/;`,
    ].join('\n');
    expect(sentencesIn('x.ts', text).map((s) => s.split(':')[1])).toEqual(['4', '5']);
  });
});

describe('words live apart from logic', () => {
  it('no logic file holds a sentence: each is in its room\'s catalog', () => {
    const left = logicFiles().flatMap((file) => sentencesIn(file, readFileSync(path.join(REPO_ROOT, file), 'utf8')));
    expect(left).toEqual([]);
  });
});
