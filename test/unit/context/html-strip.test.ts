// What never reaches the DOM of a fetched page, removed in one linear pass whatever the markup does.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { stripHeavyMarkup } from '../../../src/core/context/html-strip.js';

describe('stripHeavyMarkup', () => {
  test('scripts, styles, SVG, comments and long attribute values go; the text stays', () => {
    const html = `<html><head><title>T</title><STYLE>body{}</STYLE><script type="x">if (a < b) document.write("</div>")</script ></head>
<body><!-- a <script> in a comment --><p>Kept <b>text</b></p><svg viewBox="0 0 1 1"><text>no</text></svg><svg/><p>After</p>
<img alt="pic" src="data:image/png;base64,${'A'.repeat(5_000)}"><noscript>no</noscript><template><p>no</p></template><iframe src="x">no</iframe></body></html>`;
    const stripped = stripHeavyMarkup(html);
    assert.equal(
      stripped,
      `<html><head><title>T</title></head>
<body><p>Kept <b>text</b></p><p>After</p>
<img alt="pic" src=""></body></html>`,
    );
  });

  test('an element or comment left open runs to the end, and a flood of them stays linear', () => {
    assert.equal(stripHeavyMarkup('<p>before</p><script>never closed <p>hidden</p>'), '<p>before</p>');
    assert.equal(stripHeavyMarkup('<p>before</p><!-- never closed <p>hidden</p>'), '<p>before</p>');
    // 200,000 unclosed scripts: one pass (a backtracking regex would take hours); the text before them stays.
    const flood = `<p>first</p>${'<script>'.repeat(200_000)}`;
    assert.equal(stripHeavyMarkup(flood), '<p>first</p>');
    const quotes = `<p a="${'"'.repeat(100_000)}">x</p>`;
    assert.equal(stripHeavyMarkup(quotes), quotes, 'short values stay');
  });

  test('names that merely begin like a dropped element are kept', () => {
    assert.equal(stripHeavyMarkup('<scripture>Psalm</scripture><styled>x</styled>'), '<scripture>Psalm</scripture><styled>x</styled>');
  });
});
