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
      let row = 0, col = 0, acc = 0, k = 0, tmp = 0, tmp_1 = 0, tmp_2 = 0, tmp_3 = 0, tmp_4 = 0, k_1 = 0;
      row = (Math.imul($by, $dy) + $ty) | 0;
      col = (Math.imul($bx, $dx) + $tx) | 0;
      if ((row >= n) || (col >= n)) {
        continue $thread;
      }
      acc = 0;
      k = 0;
      if (!((((Math.imul(row, n) >= 0) && (Math.imul(row, n) < a.length)) && (((n - 1) | 0) <= ((((a.length - 1) | 0) - Math.imul(row, n)) | 0))) && (((col >= 0) && (col < b.length)) && (((n - 1) | 0) <= ((((((b.length - 1) | 0) - col) | 0) / n) | 0))))) {
        k_1 = 0;
        for (; k_1 < n; k_1 = (k_1 + 1) | 0) {
          tmp_3 = (Math.imul(row, n) + k_1) | 0;
          if ((tmp_3 >>> 0) >= (a.length >>> 0)) {
            gpuc_report_exception$0($state, 1, 0, tmp_3, a.length, $bx, $by, $bz, $tx, $ty, $tz);
            throw $trap;
          }
          tmp_4 = (Math.imul(k_1, n) + col) | 0;
          if ((tmp_4 >>> 0) >= (b.length >>> 0)) {
            gpuc_report_exception$0($state, 2, 1, tmp_4, b.length, $bx, $by, $bz, $tx, $ty, $tz);
            throw $trap;
          }
        }
      }
      for (; k < n; k = (k + 1) | 0) {
        tmp = (Math.imul(row, n) + k) | 0;
        tmp_1 = (Math.imul(k, n) + col) | 0;
        acc = Math.fround(acc + Math.fround(a[tmp] * b[tmp_1]));
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

const $wasm = "AGFzbQEAAAAADQtncHVjLnByZWZlcgEBOwNgDH9/f39/f39/f39/fwBgE39/f39/f39/f39/f39/f39/f38AYBJ/f39/f39/f39/f39/f39/f38AAhABAW0GbWVtb3J5AgEBgIAEAwQDAAECBgcBfwBBgAgLBw4CA3J1bgACBGhlYXADAAqSFAOjAQEEf0EBIQ8gAEEFQQJ0aiENIA0oAgAhDiANIA4gD2o2AgAgDiEMIAxBAEYEQCAAQQBBAnRqIAI2AgAgAEEBQQJ0aiADNgIAIABBAkECdGogBDYCACAAQQNBAnRqIAU2AgAgAEEEQQJ0aiAJIApBCnRyIAtBFHRyNgIAIABBB0ECdGogBjYCACAAQQhBAnRqIAc2AgAgAEEJQQJ0aiAINgIACwvREQ8GfwF9CX8eewF/AnsCfxB7AX8BewN/AXsEfwJ8Bn8gDyAQbCARbCEiQYCAgIAAQQAgIvwLAAJAQQAhFQJAA0AgFSARTw0BAkBBACEUAkADQCAUIBBPDQECQEEAIRNDAAAAAP0TISRBAP0RISZDAAAAAP0TISxBAP0RIS0gCiAQbP0RIS8gCP0RITBBAP0RITEgCP0RITIgBf0RITMgCEEBa/0RITQgBUEBa/0RITUgCP0RITYgCSAPbP0RITf9DAAAAAABAAAAAgAAAAMAAAAhOEEA/REhOSAH/REhOiAIQQFr/REhOyAHQQFr/REhPSAI/REhP0EA/REhRiAI/REhSiAI/REhSyAF/REhTCAI/REhTSAH/REhTkEB/REhTyAI/REhUyAI/REhVCAI/REhVUEB/REhWyAPuCFgQQEhXyAItyAJIA9sIBNqt6EhYSBfIAkgD2wgE2q3IGCgRAAAAAAAAOBBZXEhXyBhRAAAAAAAAAAApSBgpKohYiADuCAKIBBsIBRqIAhsIAkgD2wgE2pqt6EhYSBfIAogEGwgFGogCGwgCSAPbCATamq3IGCgRAAAAAAAAOBBZXEhXyBhRAAAAAAAAAAApSBgpKohYyBhRAAAAAAAAPDBoEQAAAAAAAAAAKUgYKSqIWREAAAAAAAAAAAgCiAQbCAUaiAIbCAJIA9sIBNqarehIWEgYUQAAAAAAAAAAKUgYKSqIWVBASACIANBAnRqIARNIAQgBUECdGogAk1ycSACIANBAnRqIAZNIAYgB0ECdGogAk1ycSAEIAVBAnRqIAZNIAYgB0ECdGogBE1ycSFmAkADQCATIA9PDQEgDyFeIBMgYkkgYiBeSXEEQCBiIV4LIBMgY0kgYyBeSXEEQCBjIV4LIBMgZEkgZCBeSXEEQCBkIV4LIBMgZUkgZSBeSXEEQCBlIV4LIF8EQEEAIAogEGwgFGogCGwgCSAPbCATamogA09yIGZFckUEQEEAIAogEGwgFGogCE4Ef0EBBSAJIA9sIBNqIAhOC3IhZyBnQQBGBEACQANAIBNBBGogXksNASAVIBBsIBRqIA9sIBNqISECQCAkISMgJiElICYhJyAmISggJiEpICYhKiAmISsgLCEjIC0hJSAvIBT9Ef2uASAw/bUBIDH9PyAvIBT9Ef2uASAy/bUBIDP9Of1OIDQgNSAvIBT9Ef2uASA2/bUB/bEB/T39TiA3IBP9ESA4/a4B/a4BIDn9PyA3IBP9ESA4/a4B/a4BIDr9Of1OIDsgPSA3IBP9ESA4/a4B/a4B/bEBITwgPyE+IAghQSBBQQFr/REhQiBBQQBKIEEgQUEBa3FFcQRAIDwgPEEf/awBIEL9Tv2uASBBaP2sASFDIEMhQAUgPP0bACFEID79GwAhRSBFRQR/QQAFIEVBf0YEf0EAIERrBSBEIEVtCwv9ESFAIEAgPP0bASFFID79GwEhRCBERQR/QQAFIERBf0YEf0EAIEVrBSBFIERtCwv9HAEhQCBAIDz9GwIhRCA+/RsCIUUgRUUEf0EABSBFQX9GBH9BACBEawUgRCBFbQsL/RwCIUAgQCA8/RsDIUUgPv0bAyFEIERFBH9BAAUgREF/RgR/QQAgRWsFIEUgRG0LC/0cAyFACyBA/T39Tv1O/U0hLiAu/aMBBEAgRiErAkADQAJAICsgSv05/U39GwAEQAwDBQsgLyAU/RH9rgEgS/21ASAr/a4BISkgKSBM/UD9Uw0EICsgTf21ASA3IBP9ESA4/a4B/a4B/a4BISogKiBO/UD9Uw0ECyArIE/9rgEhKwwACwsFIC79Uw0BCwJAA0ACQCAlIFP9Of1N/RsABEAMAwULIC8gFP0R/a4BIFT9tQEgJf2uASEnICUgVf21ASA3IBP9ESA4/a4B/a4B/a4BISggIyAnIVcgV/0bACFWIFcgVv0RIDj9rgH9N/2jAUUNAyAEIFZBAnRqIVggWP0AAAAgJSBV/bUB/RsAIAkgD2wgE2pqIVkgBiBZQQJ0aiFaIFr9AAAA/eYB/eQBISMLICUgW/2uASElDAALCyAKIBBsIBRqIAhsIAkgD2wgE2pqIVwgAiBcQQJ0aiFdIF0gI/0LAAAgE0EEaiETDAELDAELCwsLBSAPIV4LAkADQCATIF5PDQECQCAVIBBsIBRqIA9sIBNqISFDAAAAACEZQQAhGkEAIRtBACEcQQAhHkEAIR9BACEgAkAgCiAQbCAUaiAITgR/QQEFIAkgD2wgE2ogCE4LBEBBgICAgAAgIWpBAToAAAwBC0MAAAAAIRlBACEaIAogEGwgFGogCGxBAE4EfyAKIBBsIBRqIAhsIAVIBUEACwR/IAhBAWsgBUEBayAKIBBsIBRqIAhsa0wFQQALBH8gCSAPbCATakEATgR/IAkgD2wgE2ogB0gFQQALBH8gCEEBayAHQQFrIAkgD2wgE2prIUQgCCFFIEVFBH9BAAUgRUF/RgR/QQAgRGsFIEQgRW0LC0wFQQALBUEAC0UEQEEAISACQANAAkAgICAISEUEQAwDCyAKIBBsIBRqIAhsICBqIR4gHiAFTwRAIAAgAUEBQQAgHiAFIAkgCiALIBMgFCAVEAAACyAgIAhsIAkgD2wgE2pqIR8gHyAHTwRAIAAgAUECQQEgHyAHIAkgCiALIBMgFCAVEAAACwsgIEEBaiEgDAALCwsCQANAAkAgGiAISEUEQAwDCyAKIBBsIBRqIAhsIBpqIRsgGiAIbCAJIA9sIBNqaiEcIBkgBCAbQQJ0aioCACAGIBxBAnRqKgIAlJIhGQsgGkEBaiEaDAALCyAKIBBsIBRqIAhsIAkgD2wgE2pqIANPBEAgACABQQNBAiAKIBBsIBRqIAhsIAkgD2wgE2pqIAMgCSAKIAsgEyAUIBUQAAALIAIgCiAQbCAUaiAIbCAJIA9sIBNqakECdGogGTgCAAsLIBNBAWohEwwACwsMAAsLCyAUQQFqIRQMAAsLCyAVQQFqIRUMAAsLCwuXAQEEfyAQIBFPBEAPCyAQIRUgECAJcCESIBAgCW4gCnAhEyAQIAluIApuIRQCQANAIBUgEU8NASAAIAEgAiADIAQgBSAGIAcgCCASIBMgFCAJIAogCyAMIA0gDiAPEAEgFUEBaiEVIBJBAWohEiASIAlGBEBBACESIBNBAWohEyATIApGBEBBACETIBRBAWohFAsLDAALCwsAEwxncHVjLnRocmVhZHNhAtoC1A8=";
