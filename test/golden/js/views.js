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

function views($state, out, x, $gx, $gy, $gz, $dx, $dy, $dz, $b0, $b1) {
  let $bx0 = 0, $by0 = 0, $bz0 = 0; if ($b1 === undefined) { $b0 = 0; $b1 = $gx * $gy * $gz; } else { $bx0 = $b0 % $gx; $by0 = Math.floor($b0 / $gx) % $gy; $bz0 = Math.floor(Math.floor($b0 / $gx) / $gy); }
  for (let $b = $b0, $bx = $bx0, $by = $by0, $bz = $bz0; $b < $b1; $b++) {
    for (let $tz = 0; $tz < $dz; $tz++)
    for (let $ty = 0; $ty < $dy; $ty++)
    for (let $tx = 0; $tx < $dx; $tx++) {
      let i = 0, tmp = 0, tmp_1 = 0, tmp_2 = 0, tmp_3 = 0, tmp_4 = 0, tmp_5 = 0, tmp_6 = 0, tmp_7 = 0, tmp_8 = 0, tmp_9 = 0, sumView_v_offset = 0, sumView_v_length = 0, sumView_s = 0, sumView_i = 0;
      i = $tx;
      tmp = x.length;
      tmp_1 = (i < 0) ? Math.max(((tmp + i) | 0), 0) : Math.min(i, tmp);
      tmp_2 = (i + 4) | 0;
      tmp_3 = Math.max(((((tmp_2 < 0) ? Math.max(((tmp + tmp_2) | 0), 0) : Math.min(tmp_2, tmp)) - tmp_1) | 0), 0);
      tmp_4 = tmp_1;
      sumView_v_offset = tmp_4;
      sumView_v_length = tmp_3;
      sumView_s = 0;
      sumView_i = 0;
      for (; sumView_i < sumView_v_length; sumView_i = (sumView_i + 1) | 0) {
        sumView_s = Math.fround(sumView_s + x[(sumView_v_offset + sumView_i) | 0]);
      }
      tmp_5 = sumView_s;
      tmp_6 = x.length;
      tmp_7 = Math.max(((tmp_6 + (-2)) | 0), 0);
      tmp_8 = Math.max(((tmp_6 - tmp_7) | 0), 0);
      tmp_9 = tmp_7;
      if (0 >= (tmp_8 >>> 0)) {
        gpuc_report_exception$0($state, 1, 0, 0, tmp_8, $bx, $by, $bz, $tx, $ty, $tz);
        throw $trap;
      }
      if ((i >>> 0) >= (out.length >>> 0)) {
        gpuc_report_exception$0($state, 3, 1, i, out.length, $bx, $by, $bz, $tx, $ty, $tz);
        throw $trap;
      }
      out[i] = Math.fround(Math.fround(tmp_5 + Math.fround(tmp_3)) + x[tmp_9]);
    }
    if (++$bx === $gx) { $bx = 0; if (++$by === $gy) { $by = 0; $bz++; } }
  }
}

const $wasm = "AGFzbQEAAAAADQtncHVjLnByZWZlcgEBNQNgDH9/f39/f39/f39/fwBgEH9/f39/f39/f39/f39/f38AYA9/f39/f39/f39/f39/f38AAhABAW0GbWVtb3J5AgEBgIAEAwQDAAECBgcBfwBBgAgLBw4CA3J1bgACBGhlYXADAAroDwOjAQEEf0EBIQ8gAEEFQQJ0aiENIA0oAgAhDiANIA4gD2o2AgAgDiEMIAxBAEYEQCAAQQBBAnRqIAI2AgAgAEEBQQJ0aiADNgIAIABBAkECdGogBDYCACAAQQNBAnRqIAU2AgAgAEEEQQJ0aiAJIApBCnRyIAtBFHRyNgIAIABBB0ECdGogBjYCACAAQQhBAnRqIAc2AgAgAEEJQQJ0aiAINgIACwutDQ0KfwF9Bn8BfQN/F3sBfwF7AX8Bewh/AnwHfyAMIA1sIA5sISQCQEEAIRICQANAIBIgDk8NAQJAQQAhEQJAA0AgESANTw0BAkBBACEQQwAAAAD9EyEmQQD9ESEpQwAAAAD9EyEqQQD9ESErIAX9ESEv/QwAAAAAAQAAAAIAAAADAAAAITBBBP0RITFBAP0RITIgBf0RITNBAP0RITQgBf0RITVBAP0RITYgBf0RITdBAP0RIThBAP0RITlBAf0RIT8gDLghSEEBIUcgA7ggELehIUkgRyAQtyBIoEQAAAAAAADgQWVxIUcgSUQAAAAAAAAAAKUgSKSqIUogSUQAAAAAAADwwaBEAAAAAAAAAAClIEikqiFLRAAAAAAAAAAAIBC3oSFJIElEAAAAAAAAAAClIEikqiFMQQEgAiADQQJ0aiAETSAEIAVBAnRqIAJNcnEhTQJAA0AgECAMTw0BIAwhRiAQIEpJIEogRklxBEAgSiFGCyAQIEtJIEsgRklxBEAgSyFGCyAQIExJIEwgRklxBEAgTCFGCyBHBEBBAEEAIAUgBUF+aiFOQQAhTyBOIE8gTiBPShtrIURBACFDIEQgQyBEIENKG09yIBAgA09yIE1FckUEQEEAIVAgUEEARgRAAkADQCAQQQRqIEZLDQEgEiANbCARaiAMbCAQaiEjAkAgJiElICYhJyApISggKiEnICshKEF//REhLAJAA0AgLCEtAkAgKCAvIBD9ESAw/a4BIDH9rgH9rgEgMv24ASAQ/REgMP2uASAx/a4BIDP9tgEgEP0RIDD9rgEgMf2uASA0/Tn9UiA1IBD9ESAw/a4B/a4BIDb9uAEgEP0RIDD9rgEgN/22ASAQ/REgMP2uASA4/Tn9Uv2xASA5/bgB/Tn9TSEuIC4gLf1OITogLSAu/U8hOyAsIDr9TyEsIC0gOv1PIS0gJyA1IBD9ESAw/a4B/a4BIDb9uAEgEP0RIDD9rgEgN/22ASAQ/REgMP2uASA4/Tn9UiAo/a4BIT0gPf0bACE8ID0gPP0RIDD9rgH9N/2jAUUNAyAEIDxBAnRqIT4gPCAFTyA8QQNqIAVPcg0DID79AAAA/eQBICcgLf1SIScLICggP/2uASAoICz9UiEoICz9Uw0ACwsgJyElIBAhQCACIEBBAnRqIUEgBUF+aiFDQQAhRCBDIEQgQyBEShshQiAEIEJBAnRqIUUgQSAlIC8gEP0RIDD9rgEgMf2uAf2uASAy/bgBIBD9ESAw/a4BIDH9rgEgM/22ASAQ/REgMP2uASAx/a4BIDT9Of1SIDUgEP0RIDD9rgH9rgEgNv24ASAQ/REgMP2uASA3/bYBIBD9ESAw/a4BIDj9Of1S/bEBIDn9uAH9+gH95AEgRf0JAAD95AH9CwAAIBBBBGohEAwBCwwBCwsLCwUgDCFGCwJAA0AgECBGTw0BAkAgEiANbCARaiAMbCAQaiEjQwAAAAAhGkMAAAAAISFBACEiAkBDAAAAACEhQQAhIgJAA0ACQCAiIBBBBGpBAEgEfyAFIBBBBGpqIU9BACFOIE8gTiBPIE5KGwUgEEEEaiFOIAUhTyBOIE8gTiBPSBsLIBBBAEgEfyAFIBBqIU9BACFOIE8gTiBPIE5KGwUgECFOIAUhTyBOIE8gTiBPSBsLayFDQQAhRCBDIEQgQyBEShtIRQRADAMLICEgBCAQQQBIBH8gBSAQaiFEQQAhQyBEIEMgRCBDShsFIBAhQyAFIUQgQyBEIEMgREgbCyAiakECdGoqAgCSISELICJBAWohIgwACwsgISEaQQAgBSAFQX5qIU9BACFOIE8gTiBPIE5KG2shREEAIUMgRCBDIEQgQ0obTwRAIAAgAUEBQQBBACAFIAVBfmohTkEAIU8gTiBPIE4gT0obayFDQQAhRCBDIEQgQyBEShsgBiAHIAggECARIBIQAAALIBAgA08EQCAAIAFBA0EBIBAgAyAGIAcgCCAQIBEgEhAAAAsgAiAQQQJ0aiAaIBBBBGpBAEgEfyAFIBBBBGpqIU9BACFOIE8gTiBPIE5KGwUgEEEEaiFOIAUhTyBOIE8gTiBPSBsLIBBBAEgEfyAFIBBqIU9BACFOIE8gTiBPIE5KGwUgECFOIAUhTyBOIE8gTiBPSBsLayFEQQAhQyBEIEMgRCBDShuykiAEIAVBfmohQ0EAIUQgQyBEIEMgREobQQJ0aioCAJI4AgALCyAQQQFqIRAMAAsLDAALCwsgEUEBaiERDAALCwsgEkEBaiESDAALCwsLkQEBBH8gDSAOTwRADwsgDSESIA0gBnAhDyANIAZuIAdwIRAgDSAGbiAHbiERAkADQCASIA5PDQEgACABIAIgAyAEIAUgDyAQIBEgBiAHIAggCSAKIAsgDBABIBJBAWohEiAPQQFqIQ8gDyAGRgRAQQAhDyAQQQFqIRAgECAHRgRAQQAhECARQQFqIRELCwwACwsLAA8MZ3B1Yy50aHJlYWRzWwA=";
