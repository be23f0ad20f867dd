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

const $wasm = "AGFzbQEAAAAADQtncHVjLnByZWZlcgEBMwNgDH9/f39/f39/f39/fwBgD39/f39/f39/f39/f39/fwBgDn9/f39/f39/f39/f39/AAIQAQFtBm1lbW9yeQIBAYCABAMEAwABAgYHAX8AQYAICwcOAgNydW4AAgRoZWFwAwAK4AsDowEBBH9BASEPIABBBUECdGohDSANKAIAIQ4gDSAOIA9qNgIAIA4hDCAMQQBGBEAgAEEAQQJ0aiACNgIAIABBAUECdGogAzYCACAAQQJBAnRqIAQ2AgAgAEEDQQJ0aiAFNgIAIABBBEECdGogCSAKQQp0ciALQRR0cjYCACAAQQdBAnRqIAY2AgAgAEEIQQJ0aiAHNgIAIABBCUECdGogCDYCAAsLpwkJBX8BfQV/EXsBfxN7BH8CfAR/IAsgDGwgDWwhGQJAQQAhEQJAA0AgESANTw0BAkBBACEQAkADQCAQIAxPDQECQEEAIQ9DAAAAAP0TIRtBAP0RIR1DAAAAAP0TISBBAP0RISEgBP0RISVBA/0RISlBAP0RIS5BFP0RITBDAAAAP/0TITFBAf0RITJBAP0RITP9DAAAAAABAAAAAgAAAAMAAAAhN0EB/REhOkEA/REhO0EC/REhPiALuCFDQQEhQiADuCAPt6EhRCBCIA+3IEOgRAAAAAAAAOBBZXEhQiBERAAAAAAAAAAApSBDpKohRSBERAAAAAAAAPDBoEQAAAAAAAAAAKUgQ6SqIUZEAAAAAAAAAAAgD7ehIUQgREQAAAAAAAAAAKUgQ6SqIUcCQANAIA8gC08NASALIUEgDyBFSSBFIEFJcQRAIEUhQQsgDyBGSSBGIEFJcQRAIEYhQQsgDyBHSSBHIEFJcQRAIEchQQsgQgRAQQAgDyADT3JFBEBBACFIIEhBAEYEQAJAA0AgD0EEaiBBSw0BIBEgDGwgEGogC2wgD2ohGAJAIBshGiAdIRwgHSEeIB0hHyAgIRogISEcAkADQAJAIBwgJf05/U39GwAEQAwDBQsgHCEnICkhKEEDISsgK0EBa/0RISwgK0EASiArICtBAWtxRXEEQCAnICdBH/2sASAs/U79rgEgK2j9rAEhLSAnIC0gK2j9qwH9sQEhKgUgJ/0bACAo/RsAb/0RISogKiAn/RsBICj9GwFv/RwBISogKiAn/RsCICj9GwJv/RwCISogKiAn/RsDICj9GwNv/RwDISoLICogLv03/RsABEAMAQULIBwgMP07/RsABEAMAwULIBogHP36ASAx/eYB/eQBIRoLIBwgMv2uASEcDAALCyAzIR5Bf/0RITQCQANAIDQhNQJAIB4gHv21ASAP/REgN/2uAf05/U0hNiA2IDX9TiE4IDUgNv1PITkgNCA4/U8hNCA1IDj9TyE1IB4gOv2uASAeIDX9UiEeCyA0/VMNAAsLIDshH0F//REhPAJAA0AgPCE9AkAgHyA+/a4BIB8gPf1SIR8LIDwgHyAe/Tn9Tf1PITwgPP1TDQALCyAPIT8gAiA/QQJ0aiFAIEAgGiAe/foB/eQBIB/9+gH95AH9CwAAIA9BBGohDwwBCwwBCwsLCwUgCyFBCwJAA0AgDyBBTw0BAkAgESAMbCAQaiALbCAPaiEYQwAAAAAhFEEAIRVBACEWQQAhFwJAQwAAAAAhFEEAIRUCQANAAkAgFSAESEUEQAwDCyAVQQNvQQBGBEAMAQsgFUEUSgRADAMLIBQgFbJDAAAAP5SSIRQLIBVBAWohFQwACwtBACEWAkADQAJAIBYgFmwgD0hFBEAMAwsgFkEBaiEWCwwACwtBACEXAkADQAJAIBdBAmohFwsgFyAWSEUNAQwACwsgDyADTwRAIAAgAUEBQQAgDyADIAUgBiAHIA8gECAREAAACyACIA9BAnRqIBQgFrKSIBeykjgCAAsLIA9BAWohDwwACwsMAAsLCyAQQQFqIRAMAAsLCyARQQFqIREMAAsLCwuPAQEEfyAMIA1PBEAPCyAMIREgDCAFcCEOIAwgBW4gBnAhDyAMIAVuIAZuIRACQANAIBEgDU8NASAAIAEgAiADIAQgDiAPIBAgBSAGIAcgCCAJIAogCxABIBFBAWohESAOQQFqIQ4gDiAFRgRAQQAhDiAPQQFqIQ8gDyAGRgRAQQAhDyAQQQFqIRALCwwACwsLAA8MZ3B1Yy50aHJlYWRzWQA=";
