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

const $wasm = "AGFzbQEAAAAADQtncHVjLnByZWZlcgEBOwNgDH9/f39/f39/f39/fwBgE39/f39/f39/f39/f39/f39/f38AYBJ/f39/f39/f39/f39/f39/f38AAhABAW0GbWVtb3J5AgEBgIAEAwQDAAECBgcBfwBBgAgLBw4CA3J1bgACBGhlYXADAAqvFAOjAQEEf0EBIQ8gAEEFQQJ0aiENIA0oAgAhDiANIA4gD2o2AgAgDiEMIAxBAEYEQCAAQQBBAnRqIAI2AgAgAEEBQQJ0aiADNgIAIABBAkECdGogBDYCACAAQQNBAnRqIAU2AgAgAEEEQQJ0aiAJIApBCnRyIAtBFHRyNgIAIABBB0ECdGogBjYCACAAQQhBAnRqIAc2AgAgAEEJQQJ0aiAINgIACwvuERMGfwF9Bn8bewJ/BnsBfwF7A38JewF/AXsDfwF7An8GewJ/AnwGfyAPIBBsIBFsIR9BgICAgABBACAf/AsAAkBBACEVAkADQCAVIBFPDQECQEEAIRQCQANAIBQgEE8NAQJAQQAhE0MAAAAA/RMhIUEA/REhI0MAAAAA/RMhJkEA/REhJyAKIBBs/REhKSAI/REhKkEA/REhKyAI/REhLCAF/REhLSAIQQFr/REhLiAFQQFr/REhLyAI/REhMCAJIA9s/REhMf0MAAAAAAEAAAACAAAAAwAAACEyQQD9ESEzIAf9ESE0IAhBAWv9ESE1IAdBAWv9ESE3IAj9ESE5IAj9ESFAIAj9ESFBIAj9ESFCQQH9ESFIIAj9ESFMIAj9ESFNIAX9ESFOIAj9ESFPIAf9ESFQQQH9ESFWIA+4IWFBASFgIAi3IAkgD2wgE2q3oSFiIGAgCSAPbCATarcgYaBEAAAAAAAA4EFlcSFgIGJEAAAAAAAAAAClIGGkqiFjIAO4IAogEGwgFGogCGwgCSAPbCATamq3oSFiIGAgCiAQbCAUaiAIbCAJIA9sIBNqarcgYaBEAAAAAAAA4EFlcSFgIGJEAAAAAAAAAAClIGGkqiFkIGJEAAAAAAAA8MGgRAAAAAAAAAAApSBhpKohZUQAAAAAAAAAACAKIBBsIBRqIAhsIAkgD2wgE2pqt6EhYiBiRAAAAAAAAAAApSBhpKohZkEBIAIgA0ECdGogBE0gBCAFQQJ0aiACTXJxIAIgA0ECdGogBk0gBiAHQQJ0aiACTXJxIAQgBUECdGogBk0gBiAHQQJ0aiAETXJxIWcCQANAIBMgD08NASAPIV8gEyBjSSBjIF9JcQRAIGMhXwsgEyBkSSBkIF9JcQRAIGQhXwsgEyBlSSBlIF9JcQRAIGUhXwsgEyBmSSBmIF9JcQRAIGYhXwsgYARAQQAgCiAQbCAUaiAIbCAJIA9sIBNqaiADT3IgZ0VyRQRAQQAgCiAQbCAUaiAITgR/QQEFIAkgD2wgE2ogCE4LciFoIGhBAEYEQAJAA0AgE0EEaiBfSw0BIBUgEGwgFGogD2wgE2ohHgJAICEhICAjISIgIyEkICMhJSAmISAgJyEiICkgFP0R/a4BICr9tQEgK/0/ICkgFP0R/a4BICz9tQEgLf05/U4gLiAvICkgFP0R/a4BIDD9tQH9sQH9Pf1OIDEgE/0RIDL9rgH9rgEgM/0/IDEgE/0RIDL9rgH9rgEgNP05/U4gNSA3IDEgE/0RIDL9rgH9rgH9sQEhNiA5ITggNv0bACE7IDj9GwAhPCA8RQR/QQAFIDxBf0YEf0EAIDtrBSA7IDxtCwv9ESE6IDogNv0bASE8IDj9GwEhOyA7RQR/QQAFIDtBf0YEf0EAIDxrBSA8IDttCwv9HAEhOiA6IDb9GwIhOyA4/RsCITwgPEUEf0EABSA8QX9GBH9BACA7awUgOyA8bQsL/RwCITogOiA2/RsDITwgOP0bAyE7IDtFBH9BAAUgO0F/RgR/QQAgPGsFIDwgO20LC/0cAyE6IDr9Pf1O/U4hKCAo/aMBBEACQANAAkAgIiBA/Tn9Tf0bAARADAMFCyApIBT9Ef2uASBB/bUBICL9rgEhJCAiIEL9tQEgMSAT/REgMv2uAf2uAf2uASElICAgJCFEIET9GwAhQyBEIEP9ESAy/a4B/Tf9owFFDQQgBCBDQQJ0aiFFIEX9AAAAICIgQv21Af0bACAJIA9sIBNqaiFGIAYgRkECdGohRyBH/QAAAP3mAf3kASEgCyAiIEj9rgEhIgwACwsFICj9Uw0BAkADQAJAICIgTP05/U39GwAEQAwDBQsgKSAU/RH9rgEgTf21ASAi/a4BISQgJCBO/UD9Uw0EICIgT/21ASAxIBP9ESAy/a4B/a4B/a4BISUgJSBQ/UD9Uw0EICAgJCFSIFL9GwAhUSBSIFH9ESAy/a4B/Tf9owFFDQQgBCBRQQJ0aiFTIFP9AAAAICIgT/21Af0bACAJIA9sIBNqaiFUIAYgVEECdGohVSBV/QAAAP3mAf3kASEgCyAiIFb9rgEhIgwACwsLIAogEGwgFGogCGwgCSAPbCATamohVyACIFdBAnRqIVggWCAg/QsAACATQQRqIRMMAQsMAQsLCwsFIA8hXwsCQANAIBMgX08NAQJAIBUgEGwgFGogD2wgE2ohHkMAAAAAIRlBACEaQQAhG0EAIRwCQCAKIBBsIBRqIAhOBH9BAQUgCSAPbCATaiAITgsEQEGAgICAACAeakEBOgAADAELQwAAAAAhGUEAIRogCiAQbCAUaiAIbEEATgR/IAogEGwgFGogCGwgBUgFQQALBH8gCEEBayAFQQFrIAogEGwgFGogCGxrTAVBAAsEfyAJIA9sIBNqQQBOBH8gCSAPbCATaiAHSAVBAAsEfyAIQQFrIAdBAWsgCSAPbCATamshOyAIITwgPEUEf0EABSA8QX9GBH9BACA7awUgOyA8bQsLTAVBAAsFQQALBEACQANAAkAgGiAISEUEQAwDCyAKIBBsIBRqIAhsIBpqIRsgGiAIbCAJIA9sIBNqaiEcIBkgBCAbQQJ0aioCACAGIBxBAnRqKgIAlJIhGQsgGkEBaiEaDAALCwUCQANAAkAgGiAISEUEQAwDCyAKIBBsIBRqIAhsIBpqIRsgGyAFTwRAIAAgAUEBQQAgGyAFIAkgCiALIBMgFCAVEAAACyAaIAhsIAkgD2wgE2pqIRwgHCAHTwRAIAAgAUECQQEgHCAHIAkgCiALIBMgFCAVEAAACyAZIAQgG0ECdGoqAgAgBiAcQQJ0aioCAJSSIRkLIBpBAWohGgwACwsLIAogEGwgFGogCGwgCSAPbCATamogA08EQCAAIAFBA0ECIAogEGwgFGogCGwgCSAPbCATamogAyAJIAogCyATIBQgFRAAAAsgAiAKIBBsIBRqIAhsIAkgD2wgE2pqQQJ0aiAZOAIACwsgE0EBaiETDAALCwwACwsLIBRBAWohFAwACwsLIBVBAWohFQwACwsLC5cBAQR/IBAgEU8EQA8LIBAhFSAQIAlwIRIgECAJbiAKcCETIBAgCW4gCm4hFAJAA0AgFSARTw0BIAAgASACIAMgBCAFIAYgByAIIBIgEyAUIAkgCiALIAwgDSAOIA8QASAVQQFqIRUgEkEBaiESIBIgCUYEQEEAIRIgE0EBaiETIBMgCkYEQEEAIRMgFEEBaiEUCwsMAAsLCwATDGdwdWMudGhyZWFkc2EC4gLZDw==";
