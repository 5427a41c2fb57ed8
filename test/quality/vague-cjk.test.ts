// Lessons written in Chinese, Japanese or Korean: the vagueness check's word lists are English, so such a lesson is judged by what is left once its filler is taken out.
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkVagueness } from "../../src/quality/vague.js";
import { validateLessonText } from "../../src/quality/gates.js";

const refusedCodes = (text: string) => validateLessonText(text).issues.filter((i) => i.severity === "reject").map((i) => i.code);

test("a specific lesson written in Chinese, Japanese or Korean is stored, as its English, Russian or German is", () => {
  for (const text of [
    "数据库死锁时先回滚较小的事务，再重试较大的事务。",
    "數據庫死鎖時先回滾較小的事務，再重試較大的事務。",
    "数据库连接池的大小不要超过二十，否则生产环境会出现超时。",
    "部署前先运行数据库迁移，否则服务启动时会报错。",
    "データベースがデッドロックしたら、小さいトランザクションを先にロールバックしてから大きい方を再試行する。",
    "デプロイ前に必ずマイグレーションを実行すること。実行しないとサービスが起動時に落ちる。",
    "데이터베이스 교착 상태가 발생하면 작은 트랜잭션을 먼저 롤백한 뒤 큰 트랜잭션을 다시 시도하세요.",
    "배포 전에 반드시 데이터베이스 마이그레이션을 실행하세요. 그렇지 않으면 서비스가 시작 시 실패합니다.",
  ]) {
    assert.deepEqual(checkVagueness(text), [], text);
    assert.deepEqual(refusedCodes(text), [], text);
  }
});

test("filler in Chinese, Japanese or Korean is still vague: a wish about code, quality or care names nothing", () => {
  for (const text of [
    "写代码时一定要注意质量和性能，保持代码整洁。",
    "請務必注意程式碼品質，保持程式碼整潔。",
    "开发时要认真仔细，遵循最佳实践，提高代码质量。",
    "コードの品質に常に気をつけて、きれいなコードを書くこと。",
    "항상 코드 품질에 주의하고 깔끔한 코드를 작성하세요.",
  ]) {
    assert.deepEqual(checkVagueness(text).map((i) => i.code), ["vague"], text);
  }
});

test("a lesson mostly in English with a few CJK words is judged by the English rules", () => {
  assert.deepEqual(checkVagueness("Be careful with 代码 and always write good code."), [{ layer: "quality", severity: "reject", code: "vague", message: checkVagueness("Be careful").at(0)!.message }]);
  assert.deepEqual(checkVagueness("Run npm ci, not npm install, in CI (锁文件)."), []);
});
