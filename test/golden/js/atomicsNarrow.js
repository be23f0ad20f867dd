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

function atomicsNarrow($state, hist, bits, x, $gx, $gy, $gz, $dx, $dy, $dz, $b0, $b1) {
  let $bx0 = 0, $by0 = 0, $bz0 = 0; if ($b1 === undefined) { $b0 = 0; $b1 = $gx * $gy * $gz; } else { $bx0 = $b0 % $gx; $by0 = Math.floor($b0 / $gx) % $gy; $bz0 = Math.floor(Math.floor($b0 / $gx) / $gy); }
  if ($gx * $dx <= 2147483648) {
    for (let $b = $b0, $bx = $bx0, $by = $by0, $bz = $bz0; $b < $b1; $b++) {
      const $txEnd = Math.min($dx, x.length - $bx * $dx);
      if ($bx * $dx + $txEnd <= x.length) {
        for (let $tz = 0; $tz < $dz; $tz++)
        for (let $ty = 0; $ty < $dy; $ty++)
        for (let $tx = 0; $tx < $txEnd; $tx++) {
          let i = 0, v = 0, tmp = 0, tmp_1 = 0, tmp_2 = 0, tmp_3 = 0, tmp_4 = 0, tmp_5 = 0, tmp_6 = 0;
          i = (Math.imul($bx, $dx) + $tx) | 0;
          v = x[i];
          tmp = v & 15;
          if ((tmp >>> 0) >= (hist.length >>> 0)) {
            gpuc_report_exception$0($state, 3, 0, tmp, hist.length, $bx, $by, $bz, $tx, $ty, $tz);
            throw $trap;
          }
          { const $a = hist, $i = tmp; let $o; if ($mt) { $o = Atomics.add($a, $i, 1); } else { $o = $a[$i]; $a[$i] = $o + 1; } tmp_1 = $o; }
          tmp_2 = i & 3;
          if ((tmp_2 >>> 0) >= (bits.length >>> 0)) {
            gpuc_report_exception$0($state, 1, 1, tmp_2, bits.length, $bx, $by, $bz, $tx, $ty, $tz);
            throw $trap;
          }
          { const $a = bits, $i = tmp_2, $v0 = 1 << (i & 7); let $o; if ($mt) { $o = Atomics.or($a, $i, $v0); } else { $o = $a[$i]; $a[$i] = $o | $v0; } tmp_3 = $o; }
          { const $a = bits, $i = 0; let $o; if ($mt) { $o = Atomics.load($a, $i); } else { $o = $a[$i]; } tmp_4 = $o; }
          tmp_5 = (16 + (v & 3)) | 0;
          if ((tmp_5 >>> 0) >= (hist.length >>> 0)) {
            gpuc_report_exception$0($state, 3, 2, tmp_5, hist.length, $bx, $by, $bz, $tx, $ty, $tz);
            throw $trap;
          }
          { const $a = hist, $i = tmp_5, $v0 = tmp_4 & 1; let $o; if ($mt) { $o = Atomics.sub($a, $i, $v0); } else { $o = $a[$i]; $a[$i] = $o - $v0; } tmp_6 = $o; }
        }
      } else {
        for (let $tz = 0; $tz < $dz; $tz++)
        for (let $ty = 0; $ty < $dy; $ty++)
        for (let $tx = 0; $tx < $txEnd; $tx++) {
          let i = 0, v = 0, tmp = 0, tmp_1 = 0, tmp_2 = 0, tmp_3 = 0, tmp_4 = 0, tmp_5 = 0, tmp_6 = 0;
          i = (Math.imul($bx, $dx) + $tx) | 0;
          if ((i >>> 0) >= (x.length >>> 0)) {
            gpuc_report_exception$0($state, 2, 3, i, x.length, $bx, $by, $bz, $tx, $ty, $tz);
            throw $trap;
          }
          v = x[i];
          tmp = v & 15;
          if ((tmp >>> 0) >= (hist.length >>> 0)) {
            gpuc_report_exception$0($state, 3, 0, tmp, hist.length, $bx, $by, $bz, $tx, $ty, $tz);
            throw $trap;
          }
          { const $a = hist, $i = tmp; let $o; if ($mt) { $o = Atomics.add($a, $i, 1); } else { $o = $a[$i]; $a[$i] = $o + 1; } tmp_1 = $o; }
          tmp_2 = i & 3;
          if ((tmp_2 >>> 0) >= (bits.length >>> 0)) {
            gpuc_report_exception$0($state, 1, 1, tmp_2, bits.length, $bx, $by, $bz, $tx, $ty, $tz);
            throw $trap;
          }
          { const $a = bits, $i = tmp_2, $v0 = 1 << (i & 7); let $o; if ($mt) { $o = Atomics.or($a, $i, $v0); } else { $o = $a[$i]; $a[$i] = $o | $v0; } tmp_3 = $o; }
          { const $a = bits, $i = 0; let $o; if ($mt) { $o = Atomics.load($a, $i); } else { $o = $a[$i]; } tmp_4 = $o; }
          tmp_5 = (16 + (v & 3)) | 0;
          if ((tmp_5 >>> 0) >= (hist.length >>> 0)) {
            gpuc_report_exception$0($state, 3, 2, tmp_5, hist.length, $bx, $by, $bz, $tx, $ty, $tz);
            throw $trap;
          }
          { const $a = hist, $i = tmp_5, $v0 = tmp_4 & 1; let $o; if ($mt) { $o = Atomics.sub($a, $i, $v0); } else { $o = $a[$i]; $a[$i] = $o - $v0; } tmp_6 = $o; }
        }
      }
      if (++$bx === $gx) { $bx = 0; if (++$by === $gy) { $by = 0; $bz++; } }
    }
  } else {
    for (let $b = $b0, $bx = $bx0, $by = $by0, $bz = $bz0; $b < $b1; $b++) {
      for (let $tz = 0; $tz < $dz; $tz++)
      for (let $ty = 0; $ty < $dy; $ty++)
      $thread: for (let $tx = 0; $tx < $dx; $tx++) {
        let i = 0, v = 0, tmp = 0, tmp_1 = 0, tmp_2 = 0, tmp_3 = 0, tmp_4 = 0, tmp_5 = 0, tmp_6 = 0;
        i = (Math.imul($bx, $dx) + $tx) | 0;
        if (i >= x.length) {
          continue $thread;
        }
        if ((i >>> 0) >= (x.length >>> 0)) {
          gpuc_report_exception$0($state, 2, 3, i, x.length, $bx, $by, $bz, $tx, $ty, $tz);
          throw $trap;
        }
        v = x[i];
        tmp = v & 15;
        if ((tmp >>> 0) >= (hist.length >>> 0)) {
          gpuc_report_exception$0($state, 3, 0, tmp, hist.length, $bx, $by, $bz, $tx, $ty, $tz);
          throw $trap;
        }
        { const $a = hist, $i = tmp; let $o; if ($mt) { $o = Atomics.add($a, $i, 1); } else { $o = $a[$i]; $a[$i] = $o + 1; } tmp_1 = $o; }
        tmp_2 = i & 3;
        if ((tmp_2 >>> 0) >= (bits.length >>> 0)) {
          gpuc_report_exception$0($state, 1, 1, tmp_2, bits.length, $bx, $by, $bz, $tx, $ty, $tz);
          throw $trap;
        }
        { const $a = bits, $i = tmp_2, $v0 = 1 << (i & 7); let $o; if ($mt) { $o = Atomics.or($a, $i, $v0); } else { $o = $a[$i]; $a[$i] = $o | $v0; } tmp_3 = $o; }
        { const $a = bits, $i = 0; let $o; if ($mt) { $o = Atomics.load($a, $i); } else { $o = $a[$i]; } tmp_4 = $o; }
        tmp_5 = (16 + (v & 3)) | 0;
        if ((tmp_5 >>> 0) >= (hist.length >>> 0)) {
          gpuc_report_exception$0($state, 3, 2, tmp_5, hist.length, $bx, $by, $bz, $tx, $ty, $tz);
          throw $trap;
        }
        { const $a = hist, $i = tmp_5, $v0 = tmp_4 & 1; let $o; if ($mt) { $o = Atomics.sub($a, $i, $v0); } else { $o = $a[$i]; $a[$i] = $o - $v0; } tmp_6 = $o; }
      }
      if (++$bx === $gx) { $bx = 0; if (++$by === $gy) { $by = 0; $bz++; } }
    }
  }
}

const $wasm = "AGFzbQEAAAAADQtncHVjLnByZWZlcgEBOQNgDH9/f39/f39/f39/fwBgEn9/f39/f39/f39/f39/f39/fwBgEX9/f39/f39/f39/f39/f39/AAIQAQFtBm1lbW9yeQIBAYCABAMEAwABAgYHAX8AQYAICwcOAgNydW4AAgRoZWFwAwAK7QYDowEBBH9BASEPIABBBUECdGohDSANKAIAIQ4gDSAOIA9qNgIAIA4hDCAMQQBGBEAgAEEAQQJ0aiACNgIAIABBAUECdGogAzYCACAAQQJBAnRqIAQ2AgAgAEEDQQJ0aiAFNgIAIABBBEECdGogCSAKQQp0ciALQRR0cjYCACAAQQdBAnRqIAY2AgAgAEEIQQJ0aiAHNgIAIABBCUECdGogCDYCAAsLrgQBEn8gDiAPbCAQbCEgQYCAgIAAQQAgIPwLAAJAQQAhFAJAA0AgFCAQTw0BAkBBACETAkADQCATIA9PDQECQEEAIRICQANAIBIgDk8NAQJAIBQgD2wgE2ogDmwgEmohH0GAgICAACAfai0AAA0AQQAhF0EAIRhBACEZQQAhG0EAIRxBACEdQQAhHgJAIAggDmwgEmogB04EQEGAgICAACAfakEBOgAADAELIAggDmwgEmogB08EQCAAIAFBAkEDIAggDmwgEmogByAIIAkgCiASIBMgFBAAAAsgBiAIIA5sIBJqQQJ0aigCACEXIBdBD3EhGCAYIANPBEAgACABQQNBACAYIAMgCCAJIAogEiATIBQQAAALQQEhIyACIBhqISEgIS0AACEiICEgIiAjajoAACAiIRkgCCAObCASakEDcSAFTwRAIAAgAUEBQQEgCCAObCASakEDcSAFIAggCSAKIBIgEyAUEAAAC0EBIAggDmwgEmpBB3F0ISMgBCAIIA5sIBJqQQNxQQF0aiEhICEuAQAhIiAhICIgI3I7AQAgIiEbIARBAEEBdGohISAhLgEAISIgIiEcQRAgF0EDcWohHSAdIANPBEAgACABQQNBAiAdIAMgCCAJIAogEiATIBQQAAALIBxBAXEhIyACIB1qISEgIS0AACEiICEgIiAjazoAACAiIR4LCyASQQFqIRIMAAsLCyATQQFqIRMMAAsLCyAUQQFqIRQMAAsLCwuVAQEEfyAPIBBPBEAPCyAPIRQgDyAIcCERIA8gCG4gCXAhEiAPIAhuIAluIRMCQANAIBQgEE8NASAAIAEgAiADIAQgBSAGIAcgESASIBMgCCAJIAogCyAMIA0gDhABIBRBAWohFCARQQFqIREgESAIRgRAQQAhESASQQFqIRIgEiAJRgRAQQAhEiATQQFqIRMLCwwACwsL";
