"use strict";
const $bits = new ArrayBuffer(8), $bitsF32 = new Float32Array($bits), $bitsF64 = new Float64Array($bits), $bitsI32 = new Int32Array($bits);
function $f32bits(x) { $bitsF32[0] = x; return $bitsI32[0]; }
function $f64hi(x) { $bitsF64[0] = x; return $bitsI32[1]; }
function $f64lo(x) { $bitsF64[0] = x; return $bitsI32[0]; }

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

function gpuc_print_reserve$1(state, format, words, $bx, $by, $bz, $tx, $ty, $tz) {
  let size = 0, tmp = 0, at = 0, tmp_1 = 0;
  size = (words + 7) | 0;
  { const $a = state, $i = 27; let $o; if ($mt) { $o = Atomics.add($a, $i, size); } else { $o = $a[$i]; $a[$i] = $o + size; } tmp = $o; }
  at = (32 + tmp) | 0;
  if (((at + size) | 0) > state.length) {
    { const $a = state, $i = 28; let $o; if ($mt) { $o = Atomics.add($a, $i, 1); } else { $o = $a[$i]; $a[$i] = $o + 1; } tmp_1 = $o; }
    return -1;
  }
  state[at] = format;
  state[(at + 1) | 0] = $tx;
  state[(at + 2) | 0] = $ty;
  state[(at + 3) | 0] = $tz;
  state[(at + 4) | 0] = $bx;
  state[(at + 5) | 0] = $by;
  state[(at + 6) | 0] = $bz;
  return (at + 7) | 0;
}

function raises($state, out, x, $gx, $gy, $gz, $dx, $dy, $dz, $b0, $b1) {
  let $bx0 = 0, $by0 = 0, $bz0 = 0; if ($b1 === undefined) { $b0 = 0; $b1 = $gx * $gy * $gz; } else { $bx0 = $b0 % $gx; $by0 = Math.floor($b0 / $gx) % $gy; $bz0 = Math.floor(Math.floor($b0 / $gx) / $gy); }
  for (let $b = $b0, $bx = $bx0, $by = $by0, $bz = $bz0; $b < $b1; $b++) {
    for (let $tz = 0; $tz < $dz; $tz++)
    for (let $ty = 0; $ty < $dy; $ty++)
    for (let $tx = 0; $tx < $dx; $tx++) {
      let i = 0, tmp = 0;
      i = $tx;
      if ((i >>> 0) >= (x.length >>> 0)) {
        gpuc_report_exception$0($state, 2, 0, i, x.length, $bx, $by, $bz, $tx, $ty, $tz);
        throw $trap;
      }
      if (x[i] < 0) {
        gpuc_report_exception$0($state, 1, 1, 0, 0, $bx, $by, $bz, $tx, $ty, $tz);
        throw $trap;
      }
      if (x[i] > 100) {
        tmp = gpuc_print_reserve$1($state, 0, 2, $bx, $by, $bz, $tx, $ty, $tz);
        if (tmp >= 0) {
          $state[tmp] = $f32bits(x[i]);
          $state[(tmp + 1) | 0] = i;
        }
      }
      if ((i >>> 0) >= (out.length >>> 0)) {
        gpuc_report_exception$0($state, 3, 2, i, out.length, $bx, $by, $bz, $tx, $ty, $tz);
        throw $trap;
      }
      out[i] = Math.fround(Math.sqrt(x[i]));
    }
    if (++$bx === $gx) { $bx = 0; if (++$by === $gy) { $by = 0; $bz++; } }
  }
}

const $wasm = "AGFzbQEAAAAADQtncHVjLnByZWZlcgABQwRgDH9/f39/f39/f39/fwBgCn9/f39/f39/f38Bf2AQf39/f39/f39/f39/f39/fwBgD39/f39/f39/f39/f39/fwACEAEBbQZtZW1vcnkCAQGAgAQDBQQAAQIDBgcBfwBBgAgLBw4CA3J1bgADBGhlYXADAAr9BgSjAQEEf0EBIQ8gAEEFQQJ0aiENIA0oAgAhDiANIA4gD2o2AgAgDiEMIAxBAEYEQCAAQQBBAnRqIAI2AgAgAEEBQQJ0aiADNgIAIABBAkECdGogBDYCACAAQQNBAnRqIAU2AgAgAEEEQQJ0aiAJIApBCnRyIAtBFHRyNgIAIABBB0ECdGogBjYCACAAQQhBAnRqIAc2AgAgAEEJQQJ0aiAINgIACwvaAQEHfyADQQdqIQogCiEQIABBG0ECdGohDiAOKAIAIQ8gDiAPIBBqNgIAIA8hC0EgIAtqIQwgDCAKaiABSgRAQQEhECAAQRxBAnRqIQ4gDigCACEPIA4gDyAQajYCACAPIQ1Bfw8LIAAgDEECdGogAjYCACAAIAxBAWpBAnRqIAc2AgAgACAMQQJqQQJ0aiAINgIAIAAgDEEDakECdGogCTYCACAAIAxBBGpBAnRqIAQ2AgAgACAMQQVqQQJ0aiAFNgIAIAAgDEEGakECdGogBjYCACAMQQdqDwAL5gIBCH8gDCANbCAObCEXAkBBACESAkADQCASIA5PDQECQEEAIRECQANAIBEgDU8NAQJAQQAhEAJAA0AgECAMTw0BAkAgEiANbCARaiAMbCAQaiEWQQAhFQJAIBAgBU8EQCAAIAFBAkEAIBAgBSAGIAcgCCAQIBEgEhAAAAsgBCAQQQJ0aioCAEMAAAAAXQRAIAAgAUEBQQFBAEEAIAYgByAIIBAgESASEAAACyAEIBBBAnRqKgIAQwAAyEJeBEAgACABQQBBAiAGIAcgCCAQIBEgEhABIRUgFUEATgRAIAAgFUECdGogBCAQQQJ0aioCALw2AgAgACAVQQFqQQJ0aiAQNgIACwsgECADTwRAIAAgAUEDQQIgECADIAYgByAIIBAgESASEAAACyACIBBBAnRqIAQgEEECdGoqAgCROAIACwsgEEEBaiEQDAALCwsgEUEBaiERDAALCwsgEkEBaiESDAALCwsLkQEBBH8gDSAOTwRADwsgDSESIA0gBnAhDyANIAZuIAdwIRAgDSAGbiAHbiERAkADQCASIA5PDQEgACABIAIgAyAEIAUgDyAQIBEgBiAHIAggCSAKIAsgDBACIBJBAWohEiAPQQFqIQ8gDyAGRgRAQQAhDyAQQQFqIRAgECAHRgRAQQAhECARQQFqIRELCwwACwsLAA8MZ3B1Yy50aHJlYWRzaQA=";
