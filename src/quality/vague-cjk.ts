// Vagueness of a lesson written in Chinese, Japanese or Korean, which the English word lists of vague.ts cannot read.
import { countCjkChars } from "../core/cjk.js";

/**
 * Words that say nothing on their own in a lesson about code: care, wishes, quality, "the code", "always",
 * and grammar (particles, endings, conjunctions). Simplified and traditional Chinese, Japanese, Korean.
 * Longest first within each script, so a compound goes before its parts ("代码质量" before "代码").
 */
const FILLER_WORDS = [
  // Chinese
  "最佳实践", "最佳實踐", "程序代码", "程式碼", "可维护性", "可維護性", "可读性", "可讀性",
  "一定要", "尽可能", "盡可能", "开发时", "開發時", "写代码", "寫代碼", "寫程式",
  "注意", "小心", "仔细", "仔細", "认真", "認真", "务必", "務必", "请", "請", "尽量", "盡量", "确保", "確保",
  "保持", "整洁", "整潔", "干净", "乾淨", "良好", "更好", "好的", "质量", "質量", "品质", "品質", "性能", "效率",
  "代码", "代碼", "提高", "改进", "改進", "优化", "優化", "遵循", "遵守", "规范", "規範", "合理", "适当", "適當",
  "正确", "正確", "一切", "所有", "始终", "始終", "总是", "總是", "每次", "时候", "時候", "开发", "開發",
  "要", "时", "時", "和", "与", "與", "并", "並", "及", "的", "地", "得", "了", "在", "中", "写", "寫", "好",
  // Japanese
  "ベストプラクティス", "気をつけて", "気をつける", "気を付けて", "気を付ける", "きれいな", "綺麗な", "きれいに",
  "ください", "すること", "常に", "いつも", "必ず", "注意", "品質", "コード", "書くこと", "書く", "こと",
  "して", "する", "の", "に", "を", "は", "が", "と", "て", "で", "も",
  // Korean
  "주의하세요", "주의하고", "작성하세요", "조심하세요", "유지하세요", "깔끔한", "깔끔하게", "항상", "반드시",
  "코드를", "코드", "품질에", "품질을", "품질", "주의", "조심", "좋은", "작성", "하세요", "하고", "에", "를", "을", "의",
].sort((a, b) => b.length - a.length);

const FILLER_RE = new RegExp(FILLER_WORDS.join("|"), "gu");
const LETTER_RE = /\p{L}/gu;

/** Characters of these scripts a lesson must keep once its filler is out: about three words' worth, "回滚事务" is two. */
const MIN_CONTENT_CHARS = 6;

const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0;

/**
 * Whether most of the text's letters are Chinese, Japanese or Korean: then vague.ts's English lists see
 * none of its words and would call every lesson vague.
 */
export function isMostlyCjk(text: string): boolean {
  const cjk = countCjkChars(text);
  return cjk > 0 && cjk * 2 >= count(text, LETTER_RE);
}

/**
 * Whether a lesson mostly in Chinese, Japanese or Korean says nothing once its filler is taken out
 * ("保持代码整洁", "コードの品質に気をつけて", "코드 품질에 주의하세요"). A dictionary of each language's trade
 * words is not kept: what is left, if it is more than a few characters, is taken to name something
 * ("数据库死锁时先回滚较小的事务" keeps its deadlock and its transactions).
 */
export function isVagueCjkLesson(text: string): boolean {
  return countCjkChars(text.replace(FILLER_RE, " ")) < MIN_CONTENT_CHARS;
}
