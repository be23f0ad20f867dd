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

function transposeTile($state, out, x, n, $gx, $gy, $gz, $dx, $dy, $dz, $b0, $b1) {
  let $bx0 = 0, $by0 = 0, $bz0 = 0; if ($b1 === undefined) { $b0 = 0; $b1 = $gx * $gy * $gz; } else { $bx0 = $b0 % $gx; $by0 = Math.floor($b0 / $gx) % $gy; $bz0 = Math.floor(Math.floor($b0 / $gx) / $gy); }
  const $nt = $dx * $dy * $dz;
  const $s0_tile = new Float32Array(272);
  for (let $b = $b0, $bx = $bx0, $by = $by0, $bz = $bz0; $b < $b1; $b++) {
    $block: {
      for (let $tz = 0; $tz < $dz; $tz++) for (let $ty = 0; $ty < $dy; $ty++) $th0: for (let $tx = 0; $tx < $dx; $tx++) {
        const $t = ($tz * $dy + $ty) * $dx + $tx;
        if (((((Math.imul($bx, 16)) + ($tx)) | 0) < n) && ((((Math.imul($by, 16)) + ($ty)) | 0) < n)) {
          if ((((((Math.imul((((Math.imul($by, 16)) + ($ty)) | 0), n) + (Math.imul($bx, 16))) | 0) + ($tx)) | 0) >>> 0) >= (x.length >>> 0)) {
            gpuc_report_exception$0($state, 1, 0, (((Math.imul((((Math.imul($by, 16)) + ($ty)) | 0), n) + (Math.imul($bx, 16))) | 0) + ($tx)) | 0, x.length, $bx, $by, $bz, $tx, $ty, $tz);
            throw $trap;
          }
          if ((($ty) >>> 0) >= 16) {
            gpuc_report_exception$0($state, 2, 1, $ty, $tx, $bx, $by, $bz, $tx, $ty, $tz);
            throw $trap;
          }
          if ((($tx) >>> 0) >= 17) {
            gpuc_report_exception$0($state, 2, 1, $ty, $tx, $bx, $by, $bz, $tx, $ty, $tz);
            throw $trap;
          }
          $s0_tile[(Math.imul(($ty), 17) + ($tx)) | 0] = x[(((Math.imul((((Math.imul($by, 16)) + ($ty)) | 0), n) + (Math.imul($bx, 16))) | 0) + ($tx)) | 0];
        }
      }
      for (let $tz = 0; $tz < $dz; $tz++) for (let $ty = 0; $ty < $dy; $ty++) $th1: for (let $tx = 0; $tx < $dx; $tx++) {
        const $t = ($tz * $dy + $ty) * $dx + $tx;
        if (((((Math.imul($by, 16)) + ($tx)) | 0) < n) && ((((Math.imul($bx, 16)) + ($ty)) | 0) < n)) {
          if ((($tx) >>> 0) >= 16) {
            gpuc_report_exception$0($state, 2, 2, $tx, $ty, $bx, $by, $bz, $tx, $ty, $tz);
            throw $trap;
          }
          if ((($ty) >>> 0) >= 17) {
            gpuc_report_exception$0($state, 2, 2, $tx, $ty, $bx, $by, $bz, $tx, $ty, $tz);
            throw $trap;
          }
          if ((((((Math.imul((((Math.imul($bx, 16)) + ($ty)) | 0), n) + (Math.imul($by, 16))) | 0) + ($tx)) | 0) >>> 0) >= (out.length >>> 0)) {
            gpuc_report_exception$0($state, 3, 3, (((Math.imul((((Math.imul($bx, 16)) + ($ty)) | 0), n) + (Math.imul($by, 16))) | 0) + ($tx)) | 0, out.length, $bx, $by, $bz, $tx, $ty, $tz);
            throw $trap;
          }
          out[(((Math.imul((((Math.imul($bx, 16)) + ($ty)) | 0), n) + (Math.imul($by, 16))) | 0) + ($tx)) | 0] = $s0_tile[(Math.imul(($tx), 17) + ($ty)) | 0];
        }
      }
    }
    if (++$bx === $gx) { $bx = 0; if (++$by === $gy) { $by = 0; $bz++; } }
  }
}

const $wasm = "AGFzbQEAAAAADQtncHVjLnByZWZlcgEBQQRgB39/f39/f38AYAx/f39/f39/f39/f38AYBF/f39/f39/f39/f39/f39/fwBgEH9/f39/f39/f39/f39/f38AAh4CAW0JZGl2ZXJnZW50AAABbQZtZW1vcnkCAQGAgAQDBAMBAgMGBwF/AEHgEAsHDgIDcnVuAAMEaGVhcAMACqAPA6MBAQR/QQEhDyAAQQVBAnRqIQ0gDSgCACEOIA0gDiAPajYCACAOIQwgDEEARgRAIABBAEECdGogAjYCACAAQQFBAnRqIAM2AgAgAEECQQJ0aiAENgIAIABBA0ECdGogBTYCACAAQQRBAnRqIAkgCkEKdHIgC0EUdHI2AgAgAEEHQQJ0aiAGNgIAIABBCEECdGogBzYCACAAQQlBAnRqIAg2AgALC9UMJg5/C3sBfwJ7AX8OewF/AnsBfwJ7AX8BewJ/AXsBfw57AX8CewF/DXsBfwF7AX8PewF/AXsBfwN7AX8BewJ/AXsBfwN7AX8BewF/AXsgDSAObCAPbCEeAkBBACETAkADQCATIA9PDQECQEEAIRICQANAIBIgDk8NAQJAQQAhESAHQRBs/REhS/0MAAAAAAEAAAACAAAAAwAAACFMIAb9ESFNIAhBEGz9ESFOIAb9ESFPIAhBEGz9ESFQIAb9ESFRIAdBEGz9ESFSIAX9ESFTQRD9ESFUQRH9ESFVQRH9ESFYQQD9ESFbAkADQCARIA1PDQECQCATIA5sIBJqIA1sIBFqIR0CQCARQQNxDQAgEUEEaiANSw0AIEsgEf0RIEz9rgH9rgEgTf05IE4gEv0R/a4BIE/9Of1OIUogSv2jAQRAIFAgEv0R/a4BIFH9tQEgUv2uASAR/REgTP2uAf2uASBT/UD9Uw0BIBL9ESBU/UD9Uw0BIBH9ESBM/a4BIFX9QP1TDQEgEv0RIFj9tQEgEf0RIEz9rgH9rgEhVyBX/RsAIVYgVyBW/REgTP2uAf03/aMBRQ0BQZCAgIAAIFZBAnRqIVkgWSBQIBL9Ef2uASBR/bUBIFL9rgEgEf0RIEz9rgH9rgEhWiBbIAQgWv0bAEECdGooAgD9HAAgBCBa/RsBQQJ0aigCAP0cASAEIFr9GwJBAnRqKAIA/RwCIAQgWv0bA0ECdGooAgD9HAP9CwAABSBK/VMNAQsgEUEDaiERDAELAkAgB0EQbCARaiAGSAR/IAhBEGwgEmogBkgFQQALBEAgCEEQbCASaiAGbCAHQRBsaiARaiAFTwRAIAAgAUEBQQAgCEEQbCASaiAGbCAHQRBsaiARaiAFIAcgCCAJIBEgEiATEAEACyASQRBPBEAgACABQQJBASASIBEgByAIIAkgESASIBMQAQALIBFBEU8EQCAAIAFBAkEBIBIgESAHIAggCSARIBIgExABAAtBkICAgAAgEkERbCARakECdGogBCAIQRBsIBJqIAZsIAdBEGxqIBFqQQJ0aioCADgCAAsLCyARQQFqIREMAAsLCyASQQFqIRIMAAsLCyATQQFqIRMMAAsLQQAhEwJAA0AgEyAPTw0BAkBBACESAkADQCASIA5PDQECQEEAIREgCEEQbP0RIW79DAAAAAABAAAAAgAAAAMAAAAhbyAG/REhcCAHQRBs/REhcSAG/REhckEQ/REhc0ER/REhdCAHQRBs/REhdSAG/REhdiAIQRBs/REhdyAD/REheEER/REhfUEA/REhfgJAA0AgESANTw0BAkAgEyAObCASaiANbCARaiEdAkAgEUEDcQ0AIBFBBGogDUsNACBuIBH9ESBv/a4B/a4BIHD9OSBxIBL9Ef2uASBy/Tn9TiGHASCHAf2jAQRAIBH9ESBv/a4BIHP9QP1TDQEgEv0RIHT9QP1TDQEgdSAS/RH9rgEgdv21ASB3/a4BIBH9ESBv/a4B/a4BIHj9QP1TDQEgdSAS/RH9rgEgdv21ASB3/a4BIBH9ESBv/a4B/a4BIYkBIIkB/RsAIYgBIIkBIIgB/REgb/2uAf03/aMBRQ0BIAIgiAFBAnRqIYoBIIoBIBH9ESBv/a4BIH39tQEgEv0R/a4BIYsBIH5BkICAgAAgiwH9GwBBAnRqKAIA/RwAQZCAgIAAIIsB/RsBQQJ0aigCAP0cAUGQgICAACCLAf0bAkECdGooAgD9HAJBkICAgAAgiwH9GwNBAnRqKAIA/RwD/QsAAAUghwH9Uw0BCyARQQNqIREMAQsCQCAIQRBsIBFqIAZIBH8gB0EQbCASaiAGSAVBAAsEQCARQRBPBEAgACABQQJBAiARIBIgByAIIAkgESASIBMQAQALIBJBEU8EQCAAIAFBAkECIBEgEiAHIAggCSARIBIgExABAAsgB0EQbCASaiAGbCAIQRBsaiARaiADTwRAIAAgAUEDQQMgB0EQbCASaiAGbCAIQRBsaiARaiADIAcgCCAJIBEgEiATEAEACyACIAdBEGwgEmogBmwgCEEQbGogEWpBAnRqQZCAgIAAIBFBEWwgEmpBAnRqKgIAOAIACwsLIBFBAWohEQwACwsLIBJBAWohEgwACwsLIBNBAWohEwwACwsLC6EBAQR/QZCAgIAAQQBBwAj8CwAgDiAPTwRADwsgDiETIA4gB3AhECAOIAduIAhwIREgDiAHbiAIbiESAkADQCATIA9PDQEgACABIAIgAyAEIAUgBiAQIBEgEiAHIAggCSAKIAsgDCANEAIgE0EBaiETIBBBAWohECAQIAdGBEBBACEQIBFBAWohESARIAhGBEBBACERIBJBAWohEgsLDAALCwsAHwxncHVjLnRocmVhZHN1CPsFtQikDLoM0AzmDNoOnw8=";
