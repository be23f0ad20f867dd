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

function loops($state, out, n, $gx, $gy, $gz, $dx, $dy, $dz, $b0, $b1) {
  let $bx0 = 0, $by0 = 0, $bz0 = 0; if ($b1 === undefined) { $b0 = 0; $b1 = $gx * $gy * $gz; } else { $bx0 = $b0 % $gx; $by0 = Math.floor($b0 / $gx) % $gy; $bz0 = Math.floor(Math.floor($b0 / $gx) / $gy); }
  for (let $b = $b0, $bx = $bx0, $by = $by0, $bz = $bz0; $b < $b1; $b++) {
    for (let $tz = 0; $tz < $dz; $tz++)
    for (let $ty = 0; $ty < $dy; $ty++)
    for (let $tx = 0; $tx < $dx; $tx++) {
      let i = 0, acc = 0, j = 0, k = 0, d = 0;
      i = $tx;
      acc = 0;
      j = 0;
      for (; j < n; j = (j + 1) | 0) {
        if (((j % 3) | 0) === 0) {
          continue;
        }
        if (j > 20) {
          break;
        }
        acc = Math.fround(acc + Math.fround(Math.fround(j) * 0.5));
      }
      k = 0;
      for (; Math.imul(k, k) < i; ) {
        k = (k + 1) | 0;
      }
      d = 0;
      for (; ;) {
        $body0: {
          d = (d + 2) | 0;
        }
        if (!(d < k)) break;
      }
      if ((i >>> 0) >= (out.length >>> 0)) {
        gpuc_report_exception$0($state, 1, 0, i, out.length, $bx, $by, $bz, $tx, $ty, $tz);
        throw $trap;
      }
      out[i] = Math.fround(Math.fround(acc + Math.fround(k)) + Math.fround(d));
    }
    if (++$bx === $gx) { $bx = 0; if (++$by === $gy) { $by = 0; $bz++; } }
  }
}

const $wasm = "AGFzbQEAAAAADQtncHVjLnByZWZlcgEBMwNgDH9/f39/f39/f39/fwBgD39/f39/f39/f39/f39/fwBgDn9/f39/f39/f39/f39/AAIQAQFtBm1lbW9yeQIBAYCABAMEAwABAgYHAX8AQYAICwcOAgNydW4AAgRoZWFwAwAKlQsDowEBBH9BASEPIABBBUECdGohDSANKAIAIQ4gDSAOIA9qNgIAIA4hDCAMQQBGBEAgAEEAQQJ0aiACNgIAIABBAUECdGogAzYCACAAQQJBAnRqIAQ2AgAgAEEDQQJ0aiAFNgIAIABBBEECdGogCSAKQQp0ciALQRR0cjYCACAAQQdBAnRqIAY2AgAgAEEIQQJ0aiAHNgIAIABBCUECdGogCDYCAAsL3AgHBX8BfQV/InsEfwJ8BH8gCyAMbCANbCEZAkBBACERAkADQCARIA1PDQECQEEAIRACQANAIBAgDE8NAQJAQQAhD0MAAAAA/RMhG0EA/REhHUMAAAAA/RMhIEEA/REhISAE/REhJUED/REhKUEA/REhK0EU/REhLUMAAAA//RMhLkEB/REhL0EA/REhMP0MAAAAAAEAAAACAAAAAwAAACE0QQH9ESE3QQD9ESE4QQL9ESE7IAu4IUBBASE/IAO4IA+3oSFBID8gD7cgQKBEAAAAAAAA4EFlcSE/IEFEAAAAAAAAAAClIECkqiFCIEFEAAAAAAAA8MGgRAAAAAAAAAAApSBApKohQ0QAAAAAAAAAACAPt6EhQSBBRAAAAAAAAAAApSBApKohRAJAA0AgDyALTw0BIAshPiAPIEJJIEIgPklxBEAgQiE+CyAPIENJIEMgPklxBEAgQyE+CyAPIERJIEQgPklxBEAgRCE+CyA/BEBBACAPIANPckUEQEEAIUUgRUEARgRAAkADQCAPQQRqID5LDQEgESAMbCAQaiALbCAPaiEYAkAgGyEaIB0hHCAdIR4gHSEfICAhGiAhIRwCQANAAkAgHCAl/Tn9Tf0bAARADAMFCyAcIScgKSEoICf9GwAgKP0bAG/9ESEqICogJ/0bASAo/RsBb/0cASEqICogJ/0bAiAo/RsCb/0cAiEqICogJ/0bAyAo/RsDb/0cAyEqICogK/03/RsABEAMAQULIBwgLf07/RsABEAMAwULIBogHP36ASAu/eYB/eQBIRoLIBwgL/2uASEcDAALCyAwIR5Bf/0RITECQANAIDEhMgJAIB4gHv21ASAP/REgNP2uAf05/U0hMyAzIDL9TiE1IDIgM/1PITYgMSA1/U8hMSAyIDX9TyEyIB4gN/2uASAeIDL9UiEeCyAx/VMNAAsLIDghH0F//REhOQJAA0AgOSE6AkAgHyA7/a4BIB8gOv1SIR8LIDkgHyAe/Tn9Tf1PITkgOf1TDQALCyAPITwgAiA8QQJ0aiE9ID0gGiAe/foB/eQBIB/9+gH95AH9CwAAIA9BBGohDwwBCwwBCwsLCwUgCyE+CwJAA0AgDyA+Tw0BAkAgESAMbCAQaiALbCAPaiEYQwAAAAAhFEEAIRVBACEWQQAhFwJAQwAAAAAhFEEAIRUCQANAAkAgFSAESEUEQAwDCyAVQQNvQQBGBEAMAQsgFUEUSgRADAMLIBQgFbJDAAAAP5SSIRQLIBVBAWohFQwACwtBACEWAkADQAJAIBYgFmwgD0hFBEAMAwsgFkEBaiEWCwwACwtBACEXAkADQAJAIBdBAmohFwsgFyAWSEUNAQwACwsgDyADTwRAIAAgAUEBQQAgDyADIAUgBiAHIA8gECAREAAACyACIA9BAnRqIBQgFrKSIBeykjgCAAsLIA9BAWohDwwACwsMAAsLCyAQQQFqIRAMAAsLCyARQQFqIREMAAsLCwuPAQEEfyAMIA1PBEAPCyAMIREgDCAFcCEOIAwgBW4gBnAhDyAMIAVuIAZuIRACQANAIBEgDU8NASAAIAEgAiADIAQgDiAPIBAgBSAGIAcgCCAJIAogCxABIBFBAWohESAOQQFqIQ4gDiAFRgRAQQAhDiAPQQFqIQ8gDyAGRgRAQQAhDyAQQQFqIRALCwwACwsLAA8MZ3B1Yy50aHJlYWRzWQA=";
