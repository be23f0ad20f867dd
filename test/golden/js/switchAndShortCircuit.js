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

function switchAndShortCircuit($state, out, x, $gx, $gy, $gz, $dx, $dy, $dz, $b0, $b1) {
  let $bx0 = 0, $by0 = 0, $bz0 = 0; if ($b1 === undefined) { $b0 = 0; $b1 = $gx * $gy * $gz; } else { $bx0 = $b0 % $gx; $by0 = Math.floor($b0 / $gx) % $gy; $bz0 = Math.floor(Math.floor($b0 / $gx) / $gy); }
  for (let $b = $b0, $bx = $bx0, $by = $by0, $bz = $bz0; $b < $b1; $b++) {
    for (let $tz = 0; $tz < $dz; $tz++)
    for (let $ty = 0; $ty < $dy; $ty++)
    for (let $tx = 0; $tx < $dx; $tx++) {
      let i = 0, s = 0, tmp = false;
      i = $tx;
      s = 0;
      switch (i & 3) {
        case 0:
        {
          s = 1;
          break;
        }
        case 1:
        case 2:
        {
          s = 2;
        }
        default:
        {
          s = (s + 10) | 0;
          break;
        }
      }
      tmp = i < x.length;
      if (tmp) {
        if ((i >>> 0) >= (x.length >>> 0)) {
          gpuc_report_exception$0($state, 1, 0, i, x.length, $bx, $by, $bz, $tx, $ty, $tz);
          throw $trap;
        }
        tmp = x[i] > 0;
      }
      if (tmp) {
        s = (s + 100) | 0;
      }
      if ((i >>> 0) >= (out.length >>> 0)) {
        gpuc_report_exception$0($state, 2, 1, i, out.length, $bx, $by, $bz, $tx, $ty, $tz);
        throw $trap;
      }
      out[i] = s;
    }
    if (++$bx === $gx) { $bx = 0; if (++$by === $gy) { $by = 0; $bz++; } }
  }
}

const $wasm = "AGFzbQEAAAAADQtncHVjLnByZWZlcgEBNQNgDH9/f39/f39/f39/fwBgEH9/f39/f39/f39/f39/f38AYA9/f39/f39/f39/f39/f38AAhABAW0GbWVtb3J5AgEBgIAEAwQDAAECBgcBfwBBgAgLBw4CA3J1bgACBGhlYXADAAqABQOjAQEEf0EBIQ8gAEEFQQJ0aiENIA0oAgAhDiANIA4gD2o2AgAgDiEMIAxBAEYEQCAAQQBBAnRqIAI2AgAgAEEBQQJ0aiADNgIAIABBAkECdGogBDYCACAAQQNBAnRqIAU2AgAgAEEEQQJ0aiAJIApBCnRyIAtBFHRyNgIAIABBB0ECdGogBjYCACAAQQhBAnRqIAc2AgAgAEEJQQJ0aiAINgIACwvFAgEKfyAMIA1sIA5sIRgCQEEAIRICQANAIBIgDk8NAQJAQQAhEQJAA0AgESANTw0BAkBBACEQAkADQCAQIAxPDQECQCASIA1sIBFqIAxsIBBqIRdBACEVQQAhFgJAQQAhFSAQQQNxIRkCQAJAAkACQCAZQQBGDQAgGUEBRg0BIBlBAkYNAQwCC0EBIRUMAgwCC0ECIRULIBVBCmohFQwACyAQIAVIIRYgFgRAIBAgBU8EQCAAIAFBAUEAIBAgBSAGIAcgCCAQIBEgEhAAAAsgBCAQQQJ0aioCAEMAAAAAXiEWCyAWBEAgFUHkAGohFQsgECADTwRAIAAgAUECQQEgECADIAYgByAIIBAgESASEAAACyACIBBBAnRqIBU2AgALCyAQQQFqIRAMAAsLCyARQQFqIREMAAsLCyASQQFqIRIMAAsLCwuRAQEEfyANIA5PBEAPCyANIRIgDSAGcCEPIA0gBm4gB3AhECANIAZuIAduIRECQANAIBIgDk8NASAAIAEgAiADIAQgBSAPIBAgESAGIAcgCCAJIAogCyAMEAEgEkEBaiESIA9BAWohDyAPIAZGBEBBACEPIBBBAWohECAQIAdGBEBBACEQIBFBAWohEQsLDAALCwsADwxncHVjLnRocmVhZHNbAA==";
