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

const $wasm = "AGFzbQEAAAAADQtncHVjLnByZWZlcgEBOwNgDH9/f39/f39/f39/fwBgE39/f39/f39/f39/f39/f39/f38AYBJ/f39/f39/f39/f39/f39/f38AAhABAW0GbWVtb3J5AgEBgIAEAwQDAAECBgcBfwBBgAgLBw4CA3J1bgACBGhlYXADAArrFAOjAQEEf0EBIQ8gAEEFQQJ0aiENIA0oAgAhDiANIA4gD2o2AgAgDiEMIAxBAEYEQCAAQQBBAnRqIAI2AgAgAEEBQQJ0aiADNgIAIABBAkECdGogBDYCACAAQQNBAnRqIAU2AgAgAEEEQQJ0aiAJIApBCnRyIAtBFHRyNgIAIABBB0ECdGogBjYCACAAQQhBAnRqIAc2AgAgAEEJQQJ0aiAINgIACwuqEhMGfwF9Bn8bewF/AnsCfwZ7AX8BewN/CXsBfwF7A38BewR/AnwGfyAPIBBsIBFsIR9BgICAgABBACAf/AsAAkBBACEVAkADQCAVIBFPDQECQEEAIRQCQANAIBQgEE8NAQJAQQAhE0MAAAAA/RMhIUEA/REhI0MAAAAA/RMhJkEA/REhJyAKIBBs/REhKSAI/REhKkEA/REhKyAI/REhLCAF/REhLSAIQQFr/REhLiAFQQFr/REhLyAI/REhMCAJIA9s/REhMf0MAAAAAAEAAAACAAAAAwAAACEyQQD9ESEzIAf9ESE0IAhBAWv9ESE1IAdBAWv9ESE3IAj9ESE5IAj9ESFDIAj9ESFEIAj9ESFFQQH9ESFLIAj9ESFPIAj9ESFQIAX9ESFRIAj9ESFSIAf9ESFTQQH9ESFZIA+4IV5BASFdIAi3IAkgD2wgE2q3oSFfIF0gCSAPbCATarcgXqBEAAAAAAAA4EFlcSFdIF9EAAAAAAAAAAClIF6kqiFgIAO4IAogEGwgFGogCGwgCSAPbCATamq3oSFfIF0gCiAQbCAUaiAIbCAJIA9sIBNqarcgXqBEAAAAAAAA4EFlcSFdIF9EAAAAAAAAAAClIF6kqiFhIF9EAAAAAAAA8MGgRAAAAAAAAAAApSBepKohYkQAAAAAAAAAACAKIBBsIBRqIAhsIAkgD2wgE2pqt6EhXyBfRAAAAAAAAAAApSBepKohY0EBIAIgA0ECdGogBE0gBCAFQQJ0aiACTXJxIAIgA0ECdGogBk0gBiAHQQJ0aiACTXJxIAQgBUECdGogBk0gBiAHQQJ0aiAETXJxIWQCQANAIBMgD08NASAPIVwgEyBgSSBgIFxJcQRAIGAhXAsgEyBhSSBhIFxJcQRAIGEhXAsgEyBiSSBiIFxJcQRAIGIhXAsgEyBjSSBjIFxJcQRAIGMhXAsgXQRAQQAgCiAQbCAUaiAIbCAJIA9sIBNqaiADT3IgZEVyRQRAQQAgCiAQbCAUaiAITgR/QQEFIAkgD2wgE2ogCE4LciFlIGVBAEYEQAJAA0AgE0EEaiBcSw0BIBUgEGwgFGogD2wgE2ohHgJAICEhICAjISIgIyEkICMhJSAmISAgJyEiICkgFP0R/a4BICr9tQEgK/0/ICkgFP0R/a4BICz9tQEgLf05/U4gLiAvICkgFP0R/a4BIDD9tQH9sQH9Pf1OIDEgE/0RIDL9rgH9rgEgM/0/IDEgE/0RIDL9rgH9rgEgNP05/U4gNSA3IDEgE/0RIDL9rgH9rgH9sQEhNiA5ITggCCE7IDtBAWv9ESE8IDtBAEogOyA7QQFrcUVxBEAgNiA2QR/9rAEgPP1O/a4BIDto/awBIT0gPSE6BSA2/RsAIT4gOP0bACE/ID9FBH9BAAUgP0F/RgR/QQAgPmsFID4gP20LC/0RITogOiA2/RsBIT8gOP0bASE+ID5FBH9BAAUgPkF/RgR/QQAgP2sFID8gPm0LC/0cASE6IDogNv0bAiE+IDj9GwIhPyA/RQR/QQAFID9Bf0YEf0EAID5rBSA+ID9tCwv9HAIhOiA6IDb9GwMhPyA4/RsDIT4gPkUEf0EABSA+QX9GBH9BACA/awUgPyA+bQsL/RwDIToLIDr9Pf1O/U4hKCAo/aMBBEACQANAAkAgIiBD/Tn9Tf0bAARADAMFCyApIBT9Ef2uASBE/bUBICL9rgEhJCAiIEX9tQEgMSAT/REgMv2uAf2uAf2uASElICAgJCFHIEf9GwAhRiBHIEb9ESAy/a4B/Tf9owFFDQQgBCBGQQJ0aiFIIEj9AAAAICIgRf21Af0bACAJIA9sIBNqaiFJIAYgSUECdGohSiBK/QAAAP3mAf3kASEgCyAiIEv9rgEhIgwACwsFICj9Uw0BAkADQAJAICIgT/05/U39GwAEQAwDBQsgKSAU/RH9rgEgUP21ASAi/a4BISQgJCBR/UD9Uw0EICIgUv21ASAxIBP9ESAy/a4B/a4B/a4BISUgJSBT/UD9Uw0EICAgJCFVIFX9GwAhVCBVIFT9ESAy/a4B/Tf9owFFDQQgBCBUQQJ0aiFWIFb9AAAAICIgUv21Af0bACAJIA9sIBNqaiFXIAYgV0ECdGohWCBY/QAAAP3mAf3kASEgCyAiIFn9rgEhIgwACwsLIAogEGwgFGogCGwgCSAPbCATamohWiACIFpBAnRqIVsgWyAg/QsAACATQQRqIRMMAQsMAQsLCwsFIA8hXAsCQANAIBMgXE8NAQJAIBUgEGwgFGogD2wgE2ohHkMAAAAAIRlBACEaQQAhG0EAIRwCQCAKIBBsIBRqIAhOBH9BAQUgCSAPbCATaiAITgsEQEGAgICAACAeakEBOgAADAELQwAAAAAhGUEAIRogCiAQbCAUaiAIbEEATgR/IAogEGwgFGogCGwgBUgFQQALBH8gCEEBayAFQQFrIAogEGwgFGogCGxrTAVBAAsEfyAJIA9sIBNqQQBOBH8gCSAPbCATaiAHSAVBAAsEfyAIQQFrIAdBAWsgCSAPbCATamshPiAIIT8gP0UEf0EABSA/QX9GBH9BACA+awUgPiA/bQsLTAVBAAsFQQALBEACQANAAkAgGiAISEUEQAwDCyAKIBBsIBRqIAhsIBpqIRsgGiAIbCAJIA9sIBNqaiEcIBkgBCAbQQJ0aioCACAGIBxBAnRqKgIAlJIhGQsgGkEBaiEaDAALCwUCQANAAkAgGiAISEUEQAwDCyAKIBBsIBRqIAhsIBpqIRsgGyAFTwRAIAAgAUEBQQAgGyAFIAkgCiALIBMgFCAVEAAACyAaIAhsIAkgD2wgE2pqIRwgHCAHTwRAIAAgAUECQQEgHCAHIAkgCiALIBMgFCAVEAAACyAZIAQgG0ECdGoqAgAgBiAcQQJ0aioCAJSSIRkLIBpBAWohGgwACwsLIAogEGwgFGogCGwgCSAPbCATamogA08EQCAAIAFBA0ECIAogEGwgFGogCGwgCSAPbCATamogAyAJIAogCyATIBQgFRAAAAsgAiAKIBBsIBRqIAhsIAkgD2wgE2pqQQJ0aiAZOAIACwsgE0EBaiETDAALCwwACwsLIBRBAWohFAwACwsLIBVBAWohFQwACwsLC5cBAQR/IBAgEU8EQA8LIBAhFSAQIAlwIRIgECAJbiAKcCETIBAgCW4gCm4hFAJAA0AgFSARTw0BIAAgASACIAMgBCAFIAYgByAIIBIgEyAUIAkgCiALIAwgDSAOIA8QASAVQQFqIRUgEkEBaiESIBIgCUYEQEEAIRIgE0EBaiETIBMgCkYEQEEAIRMgFEEBaiEUCwsMAAsLCwATDGdwdWMudGhyZWFkc2EC4gKVEA==";
