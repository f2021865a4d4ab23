import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 may let the old generation grow past what was live after a full collection, in percent.
 *
 * Left to itself, V8 picks a factor from how fast the process promotes objects against how fast it marks,
 * up to 4x on a machine with memory to spare. `run` promotes a lot (the HTTP client alone leaves about
 * 15 KB in the old generation per inquiry), so about 45 MB of live data sat in 175 MB of old space, the rest
 * garbage waiting for a collection (bench/footprint.js: 290 MB RSS at 50,000 rows, 304 MB at 1,000,000).
 * At 100% (a factor of 2) the old generation stays within twice the live data: 200,000 rows, old and new build
 * side by side, peak RSS 265-269 -> 202 MB for about 10% more CPU (126 against 113-118 s: more full
 * collections). 50% gave 175-177 MB but 18% more CPU; the real cure is promoting less per inquiry.
 *
 * This is a growing factor, not a cap: the heap limit stays V8's default, so a run whose live data is bigger
 * (a larger file, the XLSX report) still gets all the memory it needs and never dies of a too-low limit,
 * which `--max-old-space-size` would risk for a run that moves money. It also takes effect when set at run
 * time, where `--max-old-space-size` would need NODE_OPTIONS or the process started again.
 */
const HEAP_GROWING_PERCENT = 100;

/** Keeps this process's heap near its live size (see HEAP_GROWING_PERCENT); for the commands that check a batch. */
export function keepHeapNearLiveSize(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
