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

function fences($state, partial, count, x, $gx, $gy, $gz, $dx, $dy, $dz, $b0, $b1) {
  let $bx0 = 0, $by0 = 0, $bz0 = 0; if ($b1 === undefined) { $b0 = 0; $b1 = $gx * $gy * $gz; } else { $bx0 = $b0 % $gx; $by0 = Math.floor($b0 / $gx) % $gy; $bz0 = Math.floor(Math.floor($b0 / $gx) / $gy); }
  for (let $b = $b0, $bx = $bx0, $by = $by0, $bz = $bz0; $b < $b1; $b++) {
    for (let $tz = 0; $tz < $dz; $tz++)
    for (let $ty = 0; $ty < $dy; $ty++)
    for (let $tx = 0; $tx < $dx; $tx++) {
      let i = 0, tmp = 0, ticket = 0, tmp_1 = 0;
      i = (Math.imul($bx, $dx) + $tx) | 0;
      if ((i >>> 0) >= (x.length >>> 0)) {
        gpuc_report_exception$0($state, 2, 0, i, x.length, $bx, $by, $bz, $tx, $ty, $tz);
        throw $trap;
      }
      if ((i >>> 0) >= (partial.length >>> 0)) {
        gpuc_report_exception$0($state, 3, 1, i, partial.length, $bx, $by, $bz, $tx, $ty, $tz);
        throw $trap;
      }
      partial[i] = Math.fround(x[i] * 2);
      if ($tx === 0) {
        if (0 >= (count.length >>> 0)) {
          gpuc_report_exception$0($state, 1, 2, 0, count.length, $bx, $by, $bz, $tx, $ty, $tz);
          throw $trap;
        }
        { const $a = count, $i = 0, $v0 = $gx >>> 0; let $o; if ($mt) { for (;;) { $o = Atomics.load($a, $i); if (Atomics.compareExchange($a, $i, $o, $o >>> 0 >= $v0 >>> 0 ? 0 : $o + 1) === $o) break; } } else { $o = $a[$i]; $a[$i] = $o >>> 0 >= $v0 >>> 0 ? 0 : $o + 1; } tmp = $o; }
        ticket = tmp;
        if (1 >= (count.length >>> 0)) {
          gpuc_report_exception$0($state, 1, 3, 1, count.length, $bx, $by, $bz, $tx, $ty, $tz);
          throw $trap;
        }
        { const $a = count, $i = 1; let $o; if ($mt) { for (;;) { $o = Atomics.load($a, $i); if (Atomics.compareExchange($a, $i, $o, $o === 0 || $o >>> 0 > ticket >>> 0 ? ticket : $o - 1) === $o) break; } } else { $o = $a[$i]; $a[$i] = $o === 0 || $o >>> 0 > ticket >>> 0 ? ticket : $o - 1; } tmp_1 = $o; }
      }
    }
    if (++$bx === $gx) { $bx = 0; if (++$by === $gy) { $by = 0; $bz++; } }
  }
}

const $wasm = "AGFzbQEAAAAADQtncHVjLnByZWZlcgEBOQNgDH9/f39/f39/f39/fwBgEn9/f39/f39/f39/f39/f39/fwBgEX9/f39/f39/f39/f39/f39/AAIQAQFtBm1lbW9yeQIBAYCABAMEAwABAgYHAX8AQYAICwcOAgNydW4AAgRoZWFwAwAKsAwDowEBBH9BASEPIABBBUECdGohDSANKAIAIQ4gDSAOIA9qNgIAIA4hDCAMQQBGBEAgAEEAQQJ0aiACNgIAIABBAUECdGogAzYCACAAQQJBAnRqIAQ2AgAgAEEDQQJ0aiAFNgIAIABBBEECdGogCSAKQQp0ciALQRR0cjYCACAAQQdBAnRqIAY2AgAgAEEIQQJ0aiAHNgIAIABBCUECdGogCDYCAAsL8QkJCn8EewN/B3sDfwN7An8CfA1/IA4gD2wgEGwhGwJAQQAhFAJAA0AgFCAQTw0BAkBBACETAkADQCATIA9PDQECQEEAIRJBAP0RIR1BACAFT/0R/aEBISNBASAFT/0R/aEBISRDAAAAQP0TISUgDrghMkEBITFBALcgErehITMgMSAStyAyoEQAAAAAAADgQWVxITEgM0QAAAAAAADwP6BEAAAAAAAAAAClIDKkqiE0IDNEAAAAAAAAAAClIDKkqiE1IAe4IAggDmwgEmq3oSEzIDEgCCAObCASarcgMqBEAAAAAAAA4EFlcSExIDNEAAAAAAAAAAClIDKkqiE2IDNEAAAAAAAA8MGgRAAAAAAAAAAApSAypKohN0QAAAAAAAAAACAIIA5sIBJqt6EhMyAzRAAAAAAAAAAApSAypKohOCADuCAIIA5sIBJqt6EhMyAxIAggDmwgEmq3IDKgRAAAAAAAAOBBZXEhMSAzRAAAAAAAAAAApSAypKohOSAzRAAAAAAAAPDBoEQAAAAAAAAAAKUgMqSqITpEAAAAAAAAAAAgCCAObCASarehITMgM0QAAAAAAAAAAKUgMqSqITtBASACIANBAnRqIARNIAQgBUECdGogAk1ycSACIANBAnRqIAZNIAYgB0ECdGogAk1ycSAEIAVBAnRqIAZNIAYgB0ECdGogBE1ycSE8AkADQCASIA5PDQEgDiEwIBIgNEkgNCAwSXEEQCA0ITALIBIgNUkgNSAwSXEEQCA1ITALIBIgNkkgNiAwSXEEQCA2ITALIBIgN0kgNyAwSXEEQCA3ITALIBIgOEkgOCAwSXEEQCA4ITALIBIgOUkgOSAwSXEEQCA5ITALIBIgOkkgOiAwSXEEQCA6ITALIBIgO0kgOyAwSXEEQCA7ITALIDEEQEEAIAggDmwgEmogB09yIAggDmwgEmogA09yQQAgBU9yQQEgBU9yIDxFckUEQEEAIBJBAEZyIT0gPUEARgRAAkADQCASQQRqIDBLDQEgFCAPbCATaiAObCASaiEaAkAgHSEcIB0hHiAdIR8gCCAObCASaiEgIAIgIEECdGohISAGICBBAnRqISIgI/1TDQAgJP1TDQAgISAi/QAAACAl/eYB/QsAACASQQRqIRIMAQsMAQsLCwsFIA4hMAsCQANAIBIgME8NAQJAIBQgD2wgE2ogDmwgEmohGkEAIRdBACEYQQAhGQJAIAggDmwgEmogB08EQCAAIAFBAkEAIAggDmwgEmogByAIIAkgCiASIBMgFBAAAAsgCCAObCASaiADTwRAIAAgAUEDQQEgCCAObCASaiADIAggCSAKIBIgEyAUEAAACyACIAggDmwgEmpBAnRqIAYgCCAObCASakECdGoqAgBDAAAAQJQ4AgAgEkEARgRAQQAgBU8EQCAAIAFBAUECQQAgBSAIIAkgCiASIBMgFBAAAAsgCyFAIARBAEECdGohPiA+KAIAIT8gPkEAID9BAWogPyBATxs2AgAgPyEXIBchGEEBIAVPBEAgACABQQFBA0EBIAUgCCAJIAogEiATIBQQAAALIBghQCAEQQFBAnRqIT4gPigCACE/ID4gQCA/QQFrID9FID8gQEtyGzYCACA/IRkLCwsgEkEBaiESDAALCwwACwsLIBNBAWohEwwACwsLIBRBAWohFAwACwsLC5UBAQR/IA8gEE8EQA8LIA8hFCAPIAhwIREgDyAIbiAJcCESIA8gCG4gCW4hEwJAA0AgFCAQTw0BIAAgASACIAMgBCAFIAYgByARIBIgEyAIIAkgCiALIAwgDSAOEAEgFEEBaiEUIBFBAWohESARIAhGBEBBACERIBJBAWohEiASIAlGBEBBACESIBNBAWohEwsLDAALCws=";
