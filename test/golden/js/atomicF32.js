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

function atomicF32($state, sums, x, $gx, $gy, $gz, $dx, $dy, $dz, $b0, $b1) {
  let $bx0 = 0, $by0 = 0, $bz0 = 0; if ($b1 === undefined) { $b0 = 0; $b1 = $gx * $gy * $gz; } else { $bx0 = $b0 % $gx; $by0 = Math.floor($b0 / $gx) % $gy; $bz0 = Math.floor(Math.floor($b0 / $gx) / $gy); }
  if ($gx * $dx <= 2147483648) {
    for (let $b = $b0, $bx = $bx0, $by = $by0, $bz = $bz0; $b < $b1; $b++) {
      const $txEnd = Math.min($dx, x.length - $bx * $dx);
      if ($bx * $dx + $txEnd <= x.length) {
        for (let $tz = 0; $tz < $dz; $tz++)
        for (let $ty = 0; $ty < $dy; $ty++)
        for (let $tx = 0; $tx < $txEnd; $tx++) {
          let i = 0, tmp = 0, tmp_1 = 0;
          i = (Math.imul($bx, $dx) + $tx) | 0;
          tmp = i & 1;
          if ((tmp >>> 0) >= (sums.length >>> 0)) {
            gpuc_report_exception$0($state, 2, 0, tmp, sums.length, $bx, $by, $bz, $tx, $ty, $tz);
            throw $trap;
          }
          { const $a = sums, $i = tmp, $v0 = x[i]; let $o; if ($mt) { $o = $atomicF32($a, $i, 0, $v0); } else { $o = $a[$i]; $a[$i] = $o + $v0; } tmp_1 = $o; }
        }
      } else {
        for (let $tz = 0; $tz < $dz; $tz++)
        for (let $ty = 0; $ty < $dy; $ty++)
        for (let $tx = 0; $tx < $txEnd; $tx++) {
          let i = 0, tmp = 0, tmp_1 = 0;
          i = (Math.imul($bx, $dx) + $tx) | 0;
          if ((i >>> 0) >= (x.length >>> 0)) {
            gpuc_report_exception$0($state, 1, 1, i, x.length, $bx, $by, $bz, $tx, $ty, $tz);
            throw $trap;
          }
          tmp = i & 1;
          if ((tmp >>> 0) >= (sums.length >>> 0)) {
            gpuc_report_exception$0($state, 2, 0, tmp, sums.length, $bx, $by, $bz, $tx, $ty, $tz);
            throw $trap;
          }
          { const $a = sums, $i = tmp, $v0 = x[i]; let $o; if ($mt) { $o = $atomicF32($a, $i, 0, $v0); } else { $o = $a[$i]; $a[$i] = $o + $v0; } tmp_1 = $o; }
        }
      }
      if (++$bx === $gx) { $bx = 0; if (++$by === $gy) { $by = 0; $bz++; } }
    }
  } else {
    for (let $b = $b0, $bx = $bx0, $by = $by0, $bz = $bz0; $b < $b1; $b++) {
      for (let $tz = 0; $tz < $dz; $tz++)
      for (let $ty = 0; $ty < $dy; $ty++)
      for (let $tx = 0; $tx < $dx; $tx++) {
        let i = 0, tmp = 0, tmp_1 = 0;
        i = (Math.imul($bx, $dx) + $tx) | 0;
        if (i < x.length) {
          if ((i >>> 0) >= (x.length >>> 0)) {
            gpuc_report_exception$0($state, 1, 1, i, x.length, $bx, $by, $bz, $tx, $ty, $tz);
            throw $trap;
          }
          tmp = i & 1;
          if ((tmp >>> 0) >= (sums.length >>> 0)) {
            gpuc_report_exception$0($state, 2, 0, tmp, sums.length, $bx, $by, $bz, $tx, $ty, $tz);
            throw $trap;
          }
          { const $a = sums, $i = tmp, $v0 = x[i]; let $o; if ($mt) { $o = $atomicF32($a, $i, 0, $v0); } else { $o = $a[$i]; $a[$i] = $o + $v0; } tmp_1 = $o; }
        }
      }
      if (++$bx === $gx) { $bx = 0; if (++$by === $gy) { $by = 0; $bz++; } }
    }
  }
}

const $wasm = "AGFzbQEAAAAADQtncHVjLnByZWZlcgEBNQNgDH9/f39/f39/f39/fwBgEH9/f39/f39/f39/f39/f38AYA9/f39/f39/f39/f39/f38AAhABAW0GbWVtb3J5AgEBgIAEAwQDAAECBgcBfwBBgAgLBw4CA3J1bgACBGhlYXADAAqGCAOjAQEEf0EBIQ8gAEEFQQJ0aiENIA0oAgAhDiANIA4gD2o2AgAgDiEMIAxBAEYEQCAAQQBBAnRqIAI2AgAgAEEBQQJ0aiADNgIAIABBAkECdGogBDYCACAAQQNBAnRqIAU2AgAgAEEEQQJ0aiAJIApBCnRyIAtBFHRyNgIAIABBB0ECdGogBjYCACAAQQhBAnRqIAc2AgAgAEEJQQJ0aiAINgIACwvLBQgGfwF9An8CewJ/AnwGfwJ9IAwgDWwgDmwhGAJAQQAhEgJAA0AgEiAOTw0BAkBBACERAkADQCARIA1PDQECQEEAIRBDAAAAAP0TIRogDLghHUEBIRwgBbcgBiAMbCAQarehIR4gHCAGIAxsIBBqtyAdoEQAAAAAAADgQWVxIRwgHkQAAAAAAAAAAKUgHaSqIR8gBbggBiAMbCAQarehIR4gHCAGIAxsIBBqtyAdoEQAAAAAAADgQWVxIRwgHkQAAAAAAAAAAKUgHaSqISAgHkQAAAAAAADwwaBEAAAAAAAAAAClIB2kqiEhRAAAAAAAAAAAIAYgDGwgEGq3oSEeIB5EAAAAAAAAAAClIB2kqiEiAkADQCAQIAxPDQEgDCEbIBAgH0kgHyAbSXEEQCAfIRsLIBAgIEkgICAbSXEEQCAgIRsLIBAgIUkgISAbSXEEQCAhIRsLIBAgIkkgIiAbSXEEQCAiIRsLIBwEQEEAIAYgDGwgEGogBU9yRQRAQQAgBiAMbCAQaiAFSHIhIyAjQQBGBEACQANAIBBBBGogG0sNASASIA1sIBFqIAxsIBBqIRcCQCAaIRkgEEEEaiEQDAELDAELCwsLBSAMIRsLAkADQCAQIBtPDQECQCASIA1sIBFqIAxsIBBqIRdDAAAAACEWAkAgBiAMbCAQaiAFSARAIAYgDGwgEGogBU8EQCAAIAFBAUEBIAYgDGwgEGogBSAGIAcgCCAQIBEgEhAAAAsgBiAMbCAQakEBcSADTwRAIAAgAUECQQAgBiAMbCAQakEBcSADIAYgByAIIBAgESASEAAACyAEIAYgDGwgEGpBAnRqKgIAISYgAiAGIAxsIBBqQQFxQQJ0aiEkICQqAgAhJSAkICUgJpI4AgAgJSEWCwsLIBBBAWohEAwACwsMAAsLCyARQQFqIREMAAsLCyASQQFqIRIMAAsLCwuRAQEEfyANIA5PBEAPCyANIRIgDSAGcCEPIA0gBm4gB3AhECANIAZuIAduIRECQANAIBIgDk8NASAAIAEgAiADIAQgBSAPIBAgESAGIAcgCCAJIAogCyAMEAEgEkEBaiESIA9BAWohDyAPIAZGBEBBACEPIBBBAWohECAQIAdGBEBBACEQIBFBAWohEQsLDAALCws=";
