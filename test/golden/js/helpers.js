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

function sign3$1(v) {
  if (v > 0) {
    return 1;
  }
  if (v < 0) {
    return -1;
  }
  return 0;
}

function sign3$2(v) {
  if (v > 0) {
    return 1;
  }
  if (v < 0) {
    return -1;
  }
  return 0;
}

function helpers($state, out, x, $gx, $gy, $gz, $dx, $dy, $dz, $b0, $b1) {
  let $bx0 = 0, $by0 = 0, $bz0 = 0; if ($b1 === undefined) { $b0 = 0; $b1 = $gx * $gy * $gz; } else { $bx0 = $b0 % $gx; $by0 = Math.floor($b0 / $gx) % $gy; $bz0 = Math.floor(Math.floor($b0 / $gx) / $gy); }
  for (let $b = $b0, $bx = $bx0, $by = $by0, $bz = $bz0; $b < $b1; $b++) {
    for (let $tz = 0; $tz < $dz; $tz++)
    for (let $ty = 0; $ty < $dy; $ty++)
    for (let $tx = 0; $tx < $dx; $tx++) {
      let i = 0, tmp = 0, tmp_1 = 0, tmp_2 = 0, lerp_a = 0, lerp_b = 0, lerp_t = 0;
      i = $tx;
      if ((i >>> 0) >= (x.length >>> 0)) {
        gpuc_report_exception$0($state, 1, 0, i, x.length, $bx, $by, $bz, $tx, $ty, $tz);
        throw $trap;
      }
      lerp_a = x[i];
      lerp_b = 1;
      lerp_t = 0.25;
      tmp = Math.fround(lerp_a + Math.fround(Math.fround(Math.fround(lerp_b) - lerp_a) * lerp_t));
      tmp_1 = sign3$1(x[i]);
      tmp_2 = sign3$2((i - 2) | 0);
      if ((i >>> 0) >= (out.length >>> 0)) {
        gpuc_report_exception$0($state, 2, 1, i, out.length, $bx, $by, $bz, $tx, $ty, $tz);
        throw $trap;
      }
      out[i] = Math.fround(Math.fround(tmp * Math.fround(tmp_1)) + Math.fround(tmp_2));
    }
    if (++$bx === $gx) { $bx = 0; if (++$by === $gy) { $by = 0; $bz++; } }
  }
}

const $wasm = "AGFzbQEAAAAADQtncHVjLnByZWZlcgEBPwVgDH9/f39/f39/f39/fwBgAX0Bf2ABfwF/YBB/f39/f39/f39/f39/f39/AGAPf39/f39/f39/f39/f39/AAIQAQFtBm1lbW9yeQIBAYCABAMGBQABAgMEBgcBfwBBgAgLBw4CA3J1bgAEBGhlYXADAAqpBQWjAQEEf0EBIQ8gAEEFQQJ0aiENIA0oAgAhDiANIA4gD2o2AgAgDiEMIAxBAEYEQCAAQQBBAnRqIAI2AgAgAEEBQQJ0aiADNgIAIABBAkECdGogBDYCACAAQQNBAnRqIAU2AgAgAEEEQQJ0aiAJIApBCnRyIAtBFHRyNgIAIABBB0ECdGogBjYCACAAQQhBAnRqIAc2AgAgAEEJQQJ0aiAINgIACwsiACAAQwAAAABeBEBBAQ8LIABDAAAAAF0EQEF/DwtBAA8ACxwAIABBAEoEQEEBDwsgAEEASARAQX8PC0EADwALrgIHBX8BfQJ/AX0BfwF9An8gDCANbCAObCEcAkBBACESAkADQCASIA5PDQECQEEAIRECQANAIBEgDU8NAQJAQQAhEAJAA0AgECAMTw0BAkAgEiANbCARaiAMbCAQaiEbQwAAAAAhFUEAIRZBACEXQwAAAAAhGAJAIBAgBU8EQCAAIAFBAUEAIBAgBSAGIAcgCCAQIBEgEhAAAAsgBCAQQQJ0aioCACEYIBhBAbIgGJNDAACAPpSSIRUgBCAQQQJ0aioCABABIRYgEEECaxACIRcgECADTwRAIAAgAUECQQEgECADIAYgByAIIBAgESASEAAACyACIBBBAnRqIBUgFrKUIBeykjgCAAsLIBBBAWohEAwACwsLIBFBAWohEQwACwsLIBJBAWohEgwACwsLC5EBAQR/IA0gDk8EQA8LIA0hEiANIAZwIQ8gDSAGbiAHcCEQIA0gBm4gB24hEQJAA0AgEiAOTw0BIAAgASACIAMgBCAFIA8gECARIAYgByAIIAkgCiALIAwQAyASQQFqIRIgD0EBaiEPIA8gBkYEQEEAIQ8gEEEBaiEQIBAgB0YEQEEAIRAgEUEBaiERCwsMAAsLCwAPDGdwdWMudGhyZWFkc2UA";
