// Posting lists of an in-memory full-text index as typed arrays: per term, the rows holding it and how often.

const EMPTY = new Int32Array(0);

/**
 * Per term, a growable Int32Array of (slot, term frequency) pairs in no particular order (a ranking
 * sums per row, so the order rows are met in changes nothing); per slot, its terms and where its pair
 * sits in each term's list, so a row leaves in O(its terms) by moving each list's last pair into its
 * place. A Map per term (slot → tf) cost a hash lookup and an entry object per row met: walking
 * packed integers is what a ranking does per matched row, a few hundred rows per lookup.
 */
export class PostingLists {
  private readonly termIds = new Map<string, number>();
  /** By term id: its pairs, and how many of them are in use. */
  private pairs: Int32Array[] = [];
  private sizes: number[] = [];
  /** By slot: its term ids, and the index of its pair in each term's list (same order). */
  private slotTerms: Int32Array[] = [];
  private slotPlaces: Int32Array[] = [];

  /** The term's id, or -1 when no row has ever held it. */
  idOf(term: string): number {
    return this.termIds.get(term) ?? -1;
  }

  /** How many rows hold the term (its document frequency). */
  frequency(term: string): number {
    const id = this.termIds.get(term);
    return id === undefined ? 0 : this.sizes[id]!;
  }

  /** How many rows hold term `id` (0 for -1). */
  sizeOf(id: number): number {
    return id < 0 ? 0 : this.sizes[id]!;
  }

  /** Term `id`'s pairs: slot at 2k, frequency at 2k + 1, for k below sizeOf(id). */
  pairsOf(id: number): Int32Array {
    return id < 0 ? EMPTY : this.pairs[id]!;
  }

  /** How often `slot` holds term `id`: 0 when it does not. */
  frequencyIn(slot: number, id: number): number {
    const terms = this.slotTerms[slot];
    if (!terms) return 0;
    const at = terms.indexOf(id);
    return at < 0 ? 0 : this.pairs[id]![2 * this.slotPlaces[slot]![at]! + 1]!;
  }

  /** Files `slot` under each of its terms (`tf`: term → frequency); the slot must hold none now. */
  add(slot: number, tf: ReadonlyMap<string, number>): void {
    const terms = new Int32Array(tf.size);
    const places = new Int32Array(tf.size);
    let k = 0;
    for (const [term, f] of tf) {
      let id = this.termIds.get(term);
      if (id === undefined) {
        id = this.pairs.length;
        this.termIds.set(term, id);
        this.pairs.push(new Int32Array(8));
        this.sizes.push(0);
      }
      const size = this.sizes[id]!;
      let list = this.pairs[id]!;
      if (2 * size + 2 > list.length) {
        const grown = new Int32Array(list.length * 2);
        grown.set(list);
        this.pairs[id] = list = grown;
      }
      list[2 * size] = slot;
      list[2 * size + 1] = f;
      this.sizes[id] = size + 1;
      terms[k] = id;
      places[k++] = size;
    }
    this.slotTerms[slot] = terms;
    this.slotPlaces[slot] = places;
  }

  /** Takes `slot` out of every list it is in. */
  remove(slot: number): void {
    const terms = this.slotTerms[slot];
    if (!terms) return;
    const places = this.slotPlaces[slot]!;
    for (let k = 0; k < terms.length; k++) {
      const id = terms[k]!;
      const list = this.pairs[id]!;
      const last = this.sizes[id]! - 1;
      const at = places[k]!;
      if (at !== last) {
        const moved = list[2 * last]!;
        list[2 * at] = moved;
        list[2 * at + 1] = list[2 * last + 1]!;
        this.slotPlaces[moved]![this.slotTerms[moved]!.indexOf(id)] = at;
      }
      this.sizes[id] = last;
    }
    this.slotTerms[slot] = EMPTY;
    this.slotPlaces[slot] = EMPTY;
  }
}
