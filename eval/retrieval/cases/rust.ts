// Rust contexts and the lessons each should surface.
import { caseFactory, type CaseSpec } from "../spec.js";

const c = caseFactory("rs", ["rust"]);

export const rustCases: CaseSpec[] = [
  c(1, "Phase 3: Login latency", "p99 latency of every endpoint spikes whenever people log in", ["crates/gateway/src/auth.rs"], "", ["rs.block-in-async"]),
  c(2, "Phase 2: Shared state", "The compiler rejects spawning the handler after I added the session map", ["crates/gateway/src/sessions.rs"], "error: future cannot be sent between threads safely", ["rs.mutex-across-await"]),
  c(3, "Phase 4: Hardening", "A bad request header crashed the whole ingest process", ["crates/ingest/src/headers.rs"], "", ["rs.unwrap-prod"]),
  c(4, "Phase 1: Error design", "Decide how the storage crate and the server binary report failures", ["crates/storage/src/error.rs", "crates/server/src/main.rs"], "", ["rs.thiserror-anyhow"]),
  c(5, "Phase 3: Webhooks", "The parsed webhook struct has every optional field empty", ["crates/gateway/src/webhook.rs"], "", ["rs.serde-rename"]),
  c(6, "Phase 2: CI", "CI cannot compile the storage crate because no database is available there", [".github/workflows/ci.yml", "crates/storage/Cargo.toml"], "", ["rs.sqlx-offline"]),
  c(7, "Phase 5: Binary size", "The production binary pulls in much more of tokio than it uses", ["Cargo.toml", "crates/server/Cargo.toml"], "", ["rs.cargo-features"]),
  c(8, "Phase 3: Order quantities", "Large order quantities turn into small numbers, but only in release builds", ["crates/codec/src/order.rs"], "", ["rs.integer-overflow"]),
  c(9, "Phase 4: Observability", "Logs from concurrent requests are interleaved and impossible to read", ["crates/gateway/src/main.rs"], "", ["rs.tracing-spans"]),
  c(10, "Phase 3: Protocol reader", "Frames are occasionally cut short when the idle timeout fires", ["crates/codec/src/reader.rs"], "we race the read against a sleep with select!", ["rs.select-cancel"]),
  c(11, "Phase 3: Display names", "Shortening display names panics for some customers", ["crates/gateway/src/names.rs"], "byte index 7 is not a char boundary; it is inside 'é'", ["rs.string-bytes"]),
  c(12, "Phase 4: Test strategy", "Find edge cases in the cursor encoder", ["crates/storage/src/cursor.rs", "crates/storage/tests/cursor.rs"], "", ["rs.proptest"]),
  c(13, "Phase 2: CI speed", "Rust CI takes fourteen minutes per push", [".github/workflows/ci.yml"], "", ["rs.build-cache"], { stack: ["rust", "github-actions"], context_only: true }),
  c(14, "Phase 4: FFI", "Review the new wrapper around the C compression library", ["crates/codec/src/ffi.rs"], "", ["rs.unsafe-review"], { agent: "reviewer" }),
  c(15, "Phase 2: Axum server", "Give every handler the database pool and config without globals", ["crates/server/src/state.rs"], "", ["rs.axum-state"], { stack: ["rust", "axum"] }),
];
