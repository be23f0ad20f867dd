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

function integers($state, out, a, b, $gx, $gy, $gz, $dx, $dy, $dz, $b0, $b1) {
  let $bx0 = 0, $by0 = 0, $bz0 = 0; if ($b1 === undefined) { $b0 = 0; $b1 = $gx * $gy * $gz; } else { $bx0 = $b0 % $gx; $by0 = Math.floor($b0 / $gx) % $gy; $bz0 = Math.floor(Math.floor($b0 / $gx) / $gy); }
  for (let $b = $b0, $bx = $bx0, $by = $by0, $bz = $bz0; $b < $b1; $b++) {
    for (let $tz = 0; $tz < $dz; $tz++)
    for (let $ty = 0; $ty < $dy; $ty++)
    for (let $tx = 0; $tx < $dx; $tx++) {
      let i = 0, q = 0, r = 0, u = 0, m = 0, tmp = 0;
      i = $tx;
      if ((i >>> 0) >= (a.length >>> 0)) {
        gpuc_report_exception$0($state, 1, 0, i, a.length, $bx, $by, $bz, $tx, $ty, $tz);
        throw $trap;
      }
      if ((i >>> 0) >= (b.length >>> 0)) {
        gpuc_report_exception$0($state, 2, 1, i, b.length, $bx, $by, $bz, $tx, $ty, $tz);
        throw $trap;
      }
      q = (a[i] / b[i]) | 0;
      r = (a[i] % b[i]) | 0;
      u = (a[i] >>> 0) >>> ((b[i] & 7) >>> 0);
      m = Math.imul(a[i], (-1640531535));
      tmp = a[i];
      if ((i >>> 0) >= (out.length >>> 0)) {
        gpuc_report_exception$0($state, 3, 2, i, out.length, $bx, $by, $bz, $tx, $ty, $tz);
        throw $trap;
      }
      out[i] = (((((((q + r) | 0) + ((u > 4294967000) ? 1 : 0)) | 0) + (m ^ (m >> 15))) | 0) + (((tmp < 0) ? true : ((tmp >>> 0) < u)) ? 2 : 0)) | 0;
    }
    if (++$bx === $gx) { $bx = 0; if (++$by === $gy) { $by = 0; $bz++; } }
  }
}

const $wasm = "AGFzbQEAAAAADQtncHVjLnByZWZlcgABOQNgDH9/f39/f39/f39/fwBgEn9/f39/f39/f39/f39/f39/fwBgEX9/f39/f39/f39/f39/f39/AAIQAQFtBm1lbW9yeQIBAYCABAMEAwABAgYHAX8AQYAICwcOAgNydW4AAgRoZWFwAwAKlQYDowEBBH9BASEPIABBBUECdGohDSANKAIAIQ4gDSAOIA9qNgIAIA4hDCAMQQBGBEAgAEEAQQJ0aiACNgIAIABBAUECdGogAzYCACAAQQJBAnRqIAQ2AgAgAEEDQQJ0aiAFNgIAIABBBEECdGogCSAKQQp0ciALQRR0cjYCACAAQQdBAnRqIAY2AgAgAEEIQQJ0aiAHNgIAIABBCUECdGogCDYCAAsL1gMDDH8PewJ/IA4gD2wgEGwhHQJAQQAhFAJAA0AgFCAQTw0BAkBBACETAkADQCATIA9PDQECQEEAIRICQANAIBIgDk8NAQJAIBQgD2wgE2ogDmwgEmohHEEAIRdBACEYQQAhGUEAIRpBACEbAkAgEiAFTwRAIAAgAUEBQQAgEiAFIAggCSAKIBIgEyAUEAAACyASIAdPBEAgACABQQJBASASIAcgCCAJIAogEiATIBQQAAALIAQgEkECdGooAgAhLSAGIBJBAnRqKAIAIS4gLkUEf0EABSAuQX9GBH9BACAtawUgLSAubQsLIRcgBCASQQJ0aigCACEuIAYgEkECdGooAgAhLSAtRQR/QQAFIC4gLW8LIRggBCASQQJ0aigCACAGIBJBAnRqKAIAQQdxdiEZIAQgEkECdGooAgBBsfPd8XlsIRogBCASQQJ0aigCACEbIBIgA08EQCAAIAFBA0ECIBIgAyAIIAkgCiASIBMgFBAAAAsgAiASQQJ0aiAXIBhqQQFBACAZQdh9SxtqIBogGkEPdXNqQQJBACAbQQBIBH9BAQUgGyAZSQsbajYCAAsLIBJBAWohEgwACwsLIBNBAWohEwwACwsLIBRBAWohFAwACwsLC5UBAQR/IA8gEE8EQA8LIA8hFCAPIAhwIREgDyAIbiAJcCESIA8gCG4gCW4hEwJAA0AgFCAQTw0BIAAgASACIAMgBCAFIAYgByARIBIgEyAIIAkgCiALIAwgDSAOEAEgFEEBaiEUIBFBAWohESARIAhGBEBBACERIBJBAWohEiASIAlGBEBBACESIBNBAWohEwsLDAALCwsADwxncHVjLnRocmVhZHNfAA==";
