;; A vector search's scans in WebAssembly SIMD: Hamming distances of sign codes (the shortlist)
;; and dot products with int8 or 4-bit rows (its re-rank). Assembled by scripts/build-wasm.ts into
;; vector-kernels-wasm.ts (checked in); edit this file, then run `node --import tsx scripts/build-wasm.ts`.
;; Each instance owns its memory: the caller keeps its rows at address 0 and scratch past them.
;;
;; Products of two int8 lanes fit an i16 lane (|-128 × -128| = 16384), so one extmul per half of
;; 16 lanes, then pairwise adds into i32 lanes: exact, as the plain-JS loop is, for any dimension
;; below 131,072 (16384 × d stays under 2^31).
(module
  (memory (export "memory") 1)

  ;; The dot product of the `d` int8 values at `$a` and at `$b`.
  (func $dot (param $a i32) (param $b i32) (param $d i32) (result i32)
    (local $end i32) (local $acc v128) (local $va v128) (local $vb v128) (local $sum i32)
    ;; 32 bytes a turn while they last (two independent accumulating chains), then 16, then bytes.
    (local.set $end (i32.add (local.get $a) (i32.and (local.get $d) (i32.const -32))))
    (block $pairs_done
      (loop $pairs
        (br_if $pairs_done (i32.ge_u (local.get $a) (local.get $end)))
        (local.set $va (v128.load (local.get $a)))
        (local.set $vb (v128.load (local.get $b)))
        (local.set $acc (i32x4.add (local.get $acc)
          (i32x4.add
            (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_low_i8x16_s (local.get $va) (local.get $vb)))
            (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_high_i8x16_s (local.get $va) (local.get $vb))))))
        (local.set $va (v128.load offset=16 (local.get $a)))
        (local.set $vb (v128.load offset=16 (local.get $b)))
        (local.set $acc (i32x4.add (local.get $acc)
          (i32x4.add
            (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_low_i8x16_s (local.get $va) (local.get $vb)))
            (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_high_i8x16_s (local.get $va) (local.get $vb))))))
        (local.set $a (i32.add (local.get $a) (i32.const 32)))
        (local.set $b (i32.add (local.get $b) (i32.const 32)))
        (br $pairs)))
    (if (i32.and (local.get $d) (i32.const 16))
      (then
        (local.set $va (v128.load (local.get $a)))
        (local.set $vb (v128.load (local.get $b)))
        (local.set $acc (i32x4.add (local.get $acc)
          (i32x4.add
            (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_low_i8x16_s (local.get $va) (local.get $vb)))
            (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_high_i8x16_s (local.get $va) (local.get $vb))))))
        (local.set $a (i32.add (local.get $a) (i32.const 16)))
        (local.set $b (i32.add (local.get $b) (i32.const 16)))))
    (local.set $sum (i32.add
      (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
      (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc)))))
    (local.set $end (i32.add (local.get $a) (i32.and (local.get $d) (i32.const 15))))
    (block $bytes_done
      (loop $bytes
        (br_if $bytes_done (i32.ge_u (local.get $a) (local.get $end)))
        (local.set $sum (i32.add (local.get $sum)
          (i32.mul (i32.load8_s (local.get $a)) (i32.load8_s (local.get $b)))))
        (local.set $a (i32.add (local.get $a) (i32.const 1)))
        (local.set $b (i32.add (local.get $b) (i32.const 1)))
        (br $bytes)))
    (local.get $sum))

  ;; For each of the `$n` row numbers (i32) at `$rows`: the dot product of that row of the matrix at
  ;; `$matrix` (rows of `$d` bytes) with the `$d` bytes at `$query`, written as i32 at `$out`.
  ;; One call per search: a JS-to-wasm call per row would cost more than the row's arithmetic.
  (func (export "dots") (param $matrix i32) (param $d i32) (param $query i32) (param $rows i32) (param $n i32) (param $out i32)
    (local $end i32)
    (local.set $end (i32.add (local.get $rows) (i32.shl (local.get $n) (i32.const 2))))
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $rows) (local.get $end)))
        (i32.store (local.get $out)
          (call $dot
            (i32.add (local.get $matrix) (i32.mul (i32.load (local.get $rows)) (local.get $d)))
            (local.get $query)
            (local.get $d)))
        (local.set $rows (i32.add (local.get $rows) (i32.const 4)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $each))))

  ;; `dots` for rows of 4-bit values: each 16 bytes hold 32 components, byte j's low nibble the
  ;; j-th and its high nibble the (16 + j)-th, each a signed value in -8..7; the query is `2 × $bytes`
  ;; int8 values. Shifting left then arithmetic-right by 4 sign-extends a low nibble, shifting right
  ;; alone a high one, so both halves reach the int8 path above: |-8 × -128| fits an i16 lane too.
  (func (export "dots4") (param $matrix i32) (param $bytes i32) (param $query i32) (param $rows i32) (param $n i32) (param $out i32)
    (local $end i32) (local $a i32) (local $aend i32) (local $b i32) (local $acc v128) (local $v v128) (local $lo v128) (local $hi v128) (local $qa v128) (local $qb v128)
    (local.set $end (i32.add (local.get $rows) (i32.shl (local.get $n) (i32.const 2))))
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $rows) (local.get $end)))
        (local.set $a (i32.add (local.get $matrix) (i32.mul (i32.load (local.get $rows)) (local.get $bytes))))
        (local.set $aend (i32.add (local.get $a) (local.get $bytes)))
        (local.set $b (local.get $query))
        (local.set $acc (v128.const i64x2 0 0))
        (loop $chunks
          (local.set $v (v128.load (local.get $a)))
          (local.set $lo (i8x16.shr_s (i8x16.shl (local.get $v) (i32.const 4)) (i32.const 4)))
          (local.set $hi (i8x16.shr_s (local.get $v) (i32.const 4)))
          (local.set $qa (v128.load (local.get $b)))
          (local.set $qb (v128.load offset=16 (local.get $b)))
          (local.set $acc (i32x4.add (local.get $acc)
            (i32x4.add
              (i32x4.add
                (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_low_i8x16_s (local.get $lo) (local.get $qa)))
                (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_high_i8x16_s (local.get $lo) (local.get $qa))))
              (i32x4.add
                (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_low_i8x16_s (local.get $hi) (local.get $qb)))
                (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_high_i8x16_s (local.get $hi) (local.get $qb)))))))
          (local.set $a (i32.add (local.get $a) (i32.const 16)))
          (local.set $b (i32.add (local.get $b) (i32.const 32)))
          (br_if $chunks (i32.lt_u (local.get $a) (local.get $aend))))
        (i32.store (local.get $out) (i32.add
          (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
          (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc)))))
        (local.set $rows (i32.add (local.get $rows) (i32.const 4)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $each))))

  ;; The Hamming distance of each of `$n` codes of `$bytes` bytes (a multiple of 16) at `$codes` to
  ;; the code at `$query`, written as u16 at `$dist`, each counted in the i32 histogram at `$hist`
  ;; (zeroed by the caller). Per-byte bit counts add into i16 lanes: 16 a chunk at most, so any
  ;; code below 2^16 bits is exact.
  (func (export "hamming") (param $codes i32) (param $bytes i32) (param $query i32) (param $n i32) (param $dist i32) (param $hist i32)
    (local $end i32) (local $q i32) (local $qend i32) (local $acc v128) (local $s i32) (local $h i32)
    (local.set $end (i32.add (local.get $dist) (i32.shl (local.get $n) (i32.const 1))))
    (local.set $qend (i32.add (local.get $query) (local.get $bytes)))
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $dist) (local.get $end)))
        (local.set $acc (v128.const i64x2 0 0))
        (local.set $q (local.get $query))
        (loop $chunks
          (local.set $acc (i16x8.add (local.get $acc)
            (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.xor (v128.load (local.get $codes)) (v128.load (local.get $q)))))))
          (local.set $codes (i32.add (local.get $codes) (i32.const 16)))
          (local.set $q (i32.add (local.get $q) (i32.const 16)))
          (br_if $chunks (i32.lt_u (local.get $q) (local.get $qend))))
        (local.set $acc (i32x4.extadd_pairwise_i16x8_u (local.get $acc)))
        (local.set $s (i32.add
          (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
          (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc)))))
        (i32.store16 (local.get $dist) (local.get $s))
        (local.set $h (i32.add (local.get $hist) (i32.shl (local.get $s) (i32.const 2))))
        (i32.store (local.get $h) (i32.add (i32.load (local.get $h)) (i32.const 1)))
        (local.set $dist (i32.add (local.get $dist) (i32.const 2)))
        (br $each)))))
