"use strict";
function gpuc_report_exception$0(state, code, loc, a, b, $bx, $by, $bz, $tx, $ty, $tz) {
  let tmp = 0;
  { const $a = state, $i = 5; let $o; if ($mt) { $o = Atomics.add($a, $i, 1); } else { $o = $a[$i]; $a[$i] = $o + 1; } tmp = $o; }
  if (tmp === 0) {
    state[0] = code;
    state[1] = loc;
    state[2] = a;
    state[3] = b;
    state[4] = ($tx | ($ty << 10)) | ($tz << 20);
    state[7] = $bx;
    state[8] = $by;
    state[9] = $bz;
  }
}

function matmul($state, c, a, b, n, $gx, $gy, $gz, $dx, $dy, $dz, $b0, $b1) {
  let $bx0 = 0, $by0 = 0, $bz0 = 0; if ($b1 === undefined) { $b0 = 0; $b1 = $gx * $gy * $gz; } else { $bx0 = $b0 % $gx; $by0 = Math.floor($b0 / $gx) % $gy; $bz0 = Math.floor(Math.floor($b0 / $gx) / $gy); }
  for (let $b = $b0, $bx = $bx0, $by = $by0, $bz = $bz0; $b < $b1; $b++) {
    for (let $tz = 0; $tz < $dz; $tz++)
    for (let $ty = 0; $ty < $dy; $ty++)
    $thread: for (let $tx = 0; $tx < $dx; $tx++) {
      let row = 0, col = 0, acc = 0, k = 0, tmp = 0, tmp_1 = 0, tmp_2 = 0;
      row = (Math.imul($by, $dy) + $ty) | 0;
      col = (Math.imul($bx, $dx) + $tx) | 0;
      if ((row >= n) || (col >= n)) {
        continue $thread;
      }
      acc = 0;
      k = 0;
      if ((((Math.imul(row, n) >= 0) && (Math.imul(row, n) < a.length)) && (((n - 1) | 0) <= ((((a.length - 1) | 0) - Math.imul(row, n)) | 0))) && (((col >= 0) && (col < b.length)) && (((n - 1) | 0) <= ((((((b.length - 1) | 0) - col) | 0) / n) | 0)))) {
        for (; k < n; k = (k + 1) | 0) {
          tmp = (Math.imul(row, n) + k) | 0;
          tmp_1 = (Math.imul(k, n) + col) | 0;
          acc = Math.fround(acc + Math.fround(a[tmp] * b[tmp_1]));
        }
      } else {
        for (; k < n; k = (k + 1) | 0) {
          tmp = (Math.imul(row, n) + k) | 0;
          if ((tmp >>> 0) >= (a.length >>> 0)) {
            gpuc_report_exception$0($state, 1, 0, tmp, a.length, $bx, $by, $bz, $tx, $ty, $tz);
            throw $trap;
          }
          tmp_1 = (Math.imul(k, n) + col) | 0;
          if ((tmp_1 >>> 0) >= (b.length >>> 0)) {
            gpuc_report_exception$0($state, 2, 1, tmp_1, b.length, $bx, $by, $bz, $tx, $ty, $tz);
            throw $trap;
          }
          acc = Math.fround(acc + Math.fround(a[tmp] * b[tmp_1]));
        }
      }
      tmp_2 = (Math.imul(row, n) + col) | 0;
      if ((tmp_2 >>> 0) >= (c.length >>> 0)) {
        gpuc_report_exception$0($state, 3, 2, tmp_2, c.length, $bx, $by, $bz, $tx, $ty, $tz);
        throw $trap;
      }
      c[tmp_2] = acc;
    }
    if (++$bx === $gx) { $bx = 0; if (++$by === $gy) { $by = 0; $bz++; } }
  }
}

const $wasm = "AGFzbQEAAAAADQtncHVjLnByZWZlcgEBOwNgDH9/f39/f39/f39/fwBgE39/f39/f39/f39/f39/f39/f38AYBJ/f39/f39/f39/f39/f39/f38AAhABAW0GbWVtb3J5AgEBgIAEAwQDAAECBgcBfwBBgAgLBw4CA3J1bgACBGhlYXADAArvFAOjAQEEf0EBIQ8gAEEFQQJ0aiENIA0oAgAhDiANIA4gD2o2AgAgDiEMIAxBAEYEQCAAQQBBAnRqIAI2AgAgAEEBQQJ0aiADNgIAIABBAkECdGogBDYCACAAQQNBAnRqIAU2AgAgAEEEQQJ0aiAJIApBCnRyIAtBFHRyNgIAIABBB0ECdGogBjYCACAAQQhBAnRqIAc2AgAgAEEJQQJ0aiAINgIACwuuEhUGfwF9Bn8bewF/AnsCfwZ7AX8BewN/CXsBfwF7A38BewJ/BnsCfwJ8Bn8gDyAQbCARbCEfQYCAgIAAQQAgH/wLAAJAQQAhFQJAA0AgFSARTw0BAkBBACEUAkADQCAUIBBPDQECQEEAIRNDAAAAAP0TISFBAP0RISNDAAAAAP0TISZBAP0RIScgCiAQbP0RISkgCP0RISpBAP0RISsgCP0RISwgBf0RIS0gCEEBa/0RIS4gBUEBa/0RIS8gCP0RITAgCSAPbP0RITH9DAAAAAABAAAAAgAAAAMAAAAhMkEA/REhMyAH/REhNCAIQQFr/REhNSAHQQFr/REhNyAI/REhOSAI/REhQyAI/REhRCAI/REhRUEB/REhSyAI/REhTyAI/REhUCAF/REhUSAI/REhUiAH/REhU0EB/REhWSAPuCFkQQEhYyAItyAJIA9sIBNqt6EhZSBjIAkgD2wgE2q3IGSgRAAAAAAAAOBBZXEhYyBlRAAAAAAAAAAApSBkpKohZiADuCAKIBBsIBRqIAhsIAkgD2wgE2pqt6EhZSBjIAogEGwgFGogCGwgCSAPbCATamq3IGSgRAAAAAAAAOBBZXEhYyBlRAAAAAAAAAAApSBkpKohZyBlRAAAAAAAAPDBoEQAAAAAAAAAAKUgZKSqIWhEAAAAAAAAAAAgCiAQbCAUaiAIbCAJIA9sIBNqarehIWUgZUQAAAAAAAAAAKUgZKSqIWlBASACIANBAnRqIARNIAQgBUECdGogAk1ycSACIANBAnRqIAZNIAYgB0ECdGogAk1ycSAEIAVBAnRqIAZNIAYgB0ECdGogBE1ycSFqAkADQCATIA9PDQEgDyFiIBMgZkkgZiBiSXEEQCBmIWILIBMgZ0kgZyBiSXEEQCBnIWILIBMgaEkgaCBiSXEEQCBoIWILIBMgaUkgaSBiSXEEQCBpIWILIGMEQEEAIAogEGwgFGogCGwgCSAPbCATamogA09yIGpFckUEQEEAIAogEGwgFGogCE4Ef0EBBSAJIA9sIBNqIAhOC3IhayBrQQBGBEACQANAIBNBBGogYksNASAVIBBsIBRqIA9sIBNqIR4CQCAhISAgIyEiICMhJCAjISUgJiEgICchIiApIBT9Ef2uASAq/bUBICv9PyApIBT9Ef2uASAs/bUBIC39Of1OIC4gLyApIBT9Ef2uASAw/bUB/bEB/T39TiAxIBP9ESAy/a4B/a4BIDP9PyAxIBP9ESAy/a4B/a4BIDT9Of1OIDUgNyAxIBP9ESAy/a4B/a4B/bEBITYgOSE4IAghOyA7QQFr/REhPCA7QQBKIDsgO0EBa3FFcQRAIDYgNkEf/awBIDz9Tv2uASA7aP2sASE9ID0hOgUgNv0bACE+IDj9GwAhPyA/RQR/QQAFID9Bf0YEf0EAID5rBSA+ID9tCwv9ESE6IDogNv0bASE/IDj9GwEhPiA+RQR/QQAFID5Bf0YEf0EAID9rBSA/ID5tCwv9HAEhOiA6IDb9GwIhPiA4/RsCIT8gP0UEf0EABSA/QX9GBH9BACA+awUgPiA/bQsL/RwCITogOiA2/RsDIT8gOP0bAyE+ID5FBH9BAAUgPkF/RgR/QQAgP2sFID8gPm0LC/0cAyE6CyA6/T39Tv1OISggKP2jAQRAAkADQAJAICIgQ/05/U39GwAEQAwDBQsgKSAU/RH9rgEgRP21ASAi/a4BISQgIiBF/bUBIDEgE/0RIDL9rgH9rgH9rgEhJSAgICQhRyBH/RsAIUYgRyBG/REgMv2uAf03/aMBRQ0EIAQgRkECdGohSCBI/QAAACAiIEX9tQH9GwAgCSAPbCATamohSSAGIElBAnRqIUogSv0AAAD95gH95AEhIAsgIiBL/a4BISIMAAsLBSAo/VMNAQJAA0ACQCAiIE/9Of1N/RsABEAMAwULICkgFP0R/a4BIFD9tQEgIv2uASEkICQgUf1A/VMNBCAiIFL9tQEgMSAT/REgMv2uAf2uAf2uASElICUgU/1A/VMNBCAgICQhVSBV/RsAIVQgVSBU/REgMv2uAf03/aMBRQ0EIAQgVEECdGohViBW/QAAACAiIFL9tQH9GwAgCSAPbCATamohVyAGIFdBAnRqIVggWP0AAAD95gH95AEhIAsgIiBZ/a4BISIMAAsLCyAKIBBsIBRqIAhsIAkgD2wgE2pqIVogAiBaQQJ0aiFbIFsgIP0LAAAgE0EEaiETDAELDAELCwsLBSAPIWILAkADQCATIGJPDQECQCAVIBBsIBRqIA9sIBNqIR5DAAAAACEZQQAhGkEAIRtBACEcAkAgCiAQbCAUaiAITgR/QQEFIAkgD2wgE2ogCE4LBEBBgICAgAAgHmpBAToAAAwBC0MAAAAAIRlBACEaIAogEGwgFGogCGxBAE4EfyAKIBBsIBRqIAhsIAVIBUEACwR/IAhBAWsgBUEBayAKIBBsIBRqIAhsa0wFQQALBH8gCSAPbCATakEATgR/IAkgD2wgE2ogB0gFQQALBH8gCEEBayAHQQFrIAkgD2wgE2prIT4gCCE/ID9FBH9BAAUgP0F/RgR/QQAgPmsFID4gP20LC0wFQQALBUEACwRAAkADQAJAIBogCEhFBEAMAwsgCiAQbCAUaiAIbCAaaiEbIBogCGwgCSAPbCATamohHCAZIAQgG0ECdGoqAgAgBiAcQQJ0aioCAJSSIRkLIBpBAWohGgwACwsFAkADQAJAIBogCEhFBEAMAwsgCiAQbCAUaiAIbCAaaiEbIBsgBU8EQCAAIAFBAUEAIBsgBSAJIAogCyATIBQgFRAAAAsgGiAIbCAJIA9sIBNqaiEcIBwgB08EQCAAIAFBAkEBIBwgByAJIAogCyATIBQgFRAAAAsgGSAEIBtBAnRqKgIAIAYgHEECdGoqAgCUkiEZCyAaQQFqIRoMAAsLCyAKIBBsIBRqIAhsIAkgD2wgE2pqIANPBEAgACABQQNBAiAKIBBsIBRqIAhsIAkgD2wgE2pqIAMgCSAKIAsgEyAUIBUQAAALIAIgCiAQbCAUaiAIbCAJIA9sIBNqakECdGogGTgCAAsLIBNBAWohEwwACwsMAAsLCyAUQQFqIRQMAAsLCyAVQQFqIRUMAAsLCwuXAQEEfyAQIBFPBEAPCyAQIRUgECAJcCESIBAgCW4gCnAhEyAQIAluIApuIRQCQANAIBUgEU8NASAAIAEgAiADIAQgBSAGIAcgCCASIBMgFCAJIAogCyAMIA0gDiAPEAEgFUEBaiEVIBJBAWohEiASIAlGBEBBACESIBNBAWohEyATIApGBEBBACETIBRBAWohFAsLDAALCwsAEwxncHVjLnRocmVhZHNhAuYCmRA=";
