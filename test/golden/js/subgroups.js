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

function subgroups($state, out, x, $gx, $gy, $gz, $dx, $dy, $dz, $b0, $b1) {
  let $bx0 = 0, $by0 = 0, $bz0 = 0; if ($b1 === undefined) { $b0 = 0; $b1 = $gx * $gy * $gz; } else { $bx0 = $b0 % $gx; $by0 = Math.floor($b0 / $gx) % $gy; $bz0 = Math.floor(Math.floor($b0 / $gx) / $gy); }
  const $nt = $dx * $dy * $dz;
  const $xv0 = new Int32Array($nt);
  const $xv1 = new Int32Array($nt), $xl1 = new Uint32Array($nt);
  const $xv2 = new Uint8Array($nt);
  const $L4 = new Int32Array($nt);
  const $L6 = new Int32Array($nt);
  const $L8 = new Int32Array($nt);
  for (let $b = $b0, $bx = $bx0, $by = $by0, $bz = $bz0; $b < $b1; $b++) {
    $block: {
      for (let $tz = 0; $tz < $dz; $tz++) for (let $ty = 0; $ty < $dy; $ty++) $th0: for (let $tx = 0; $tx < $dx; $tx++) {
        const $t = ($tz * $dy + $ty) * $dx + $tx;
        const $lane = $t % $S;
        let $r4 = $L4[$t];
        if ((((Math.imul($bx, $dx) + $tx) | 0) >>> 0) >= (x.length >>> 0)) {
          gpuc_report_exception$0($state, 1, 0, (Math.imul($bx, $dx) + $tx) | 0, x.length, $bx, $by, $bz, $tx, $ty, $tz);
          throw $trap;
        }
        $r4 = x[(Math.imul($bx, $dx) + $tx) | 0];
        $xv0[$t] = $r4;
        $L4[$t] = $r4;
      }
      let $xk0 = -1, $xr0;
      for (let $tz = 0; $tz < $dz; $tz++) for (let $ty = 0; $ty < $dy; $ty++) $th1: for (let $tx = 0; $tx < $dx; $tx++) {
        const $t = ($tz * $dy + $ty) * $dx + $tx;
        const $lane = $t % $S;
        let tmp = 0;
        let $r4 = $L4[$t];
        let $r6 = $L6[$t];
        {
          const $l = $t % $S, $b = $t - $l, $n = Math.min($S, $nt - $b);
          if ($xk0 !== $b) {
            let $acc = 0;
            for (let $j = 0; $j < $n; $j++) if (true) { const $v = $xv0[$b + $j]; $acc = ($acc + $v) | 0; }
            $xk0 = $b; $xr0 = $acc;
          }
          tmp = $xr0;
        }
        $r6 = tmp;
        $xv1[$t] = $r4;
        $xl1[$t] = 1;
        $L6[$t] = $r6;
      }
      for (let $tz = 0; $tz < $dz; $tz++) for (let $ty = 0; $ty < $dy; $ty++) $th2: for (let $tx = 0; $tx < $dx; $tx++) {
        const $t = ($tz * $dy + $ty) * $dx + $tx;
        const $lane = $t % $S;
        let tmp_1 = 0;
        let $r4 = $L4[$t];
        let $r8 = $L8[$t];
        {
          const $l = $t % $S, $b = $t - $l, $n = Math.min($S, $nt - $b);
          const $j = ($l ^ $xl1[$t]) >>> 0;
          tmp_1 = $j < $n ? $xv1[$b + $j] : $xv1[$t];
        }
        $r8 = tmp_1;
        $xv2[$t] = ($r4 > 0) ? 1 : 0;
        $L8[$t] = $r8;
      }
      let $xk2 = -1, $xr2;
      for (let $tz = 0; $tz < $dz; $tz++) for (let $ty = 0; $ty < $dy; $ty++) $th3: for (let $tx = 0; $tx < $dx; $tx++) {
        const $t = ($tz * $dy + $ty) * $dx + $tx;
        const $lane = $t % $S;
        let tmp_2 = 0, ballot = 0;
        let $r6 = $L6[$t];
        let $r8 = $L8[$t];
        {
          const $l = $t % $S, $b = $t - $l, $n = Math.min($S, $nt - $b);
          if ($xk2 !== $b) {
            let $acc = 0;
            for (let $j = 0; $j < $n; $j++) if (true) { const $v = $xv2[$b + $j] === 1; $acc = $v ? ($acc | (1 << $j)) >>> 0 : $acc; }
            $xk2 = $b; $xr2 = $acc;
          }
          tmp_2 = $xr2;
        }
        ballot = tmp_2;
        if ((((Math.imul($bx, $dx) + $tx) | 0) >>> 0) >= (out.length >>> 0)) {
          gpuc_report_exception$0($state, 2, 1, (Math.imul($bx, $dx) + $tx) | 0, out.length, $bx, $by, $bz, $tx, $ty, $tz);
          throw $trap;
        }
        out[(Math.imul($bx, $dx) + $tx) | 0] = ((((($r6 + $r8) | 0) + ((ballot | 0) & 255)) | 0) + $lane) | 0;
      }
    }
    if (++$bx === $gx) { $bx = 0; if (++$by === $gy) { $by = 0; $bz++; } }
  }
}

const $wasm = "AGFzbQEAAAAADQtncHVjLnByZWZlcgEBPwRgB39/f39/f38AYAx/f39/f39/f39/f38AYBB/f39/f39/f39/f39/f39/AGAPf39/f39/f39/f39/f39/AAIeAgFtCWRpdmVyZ2VudAAAAW0GbWVtb3J5AgEBgIAEAwQDAQIDBggBfwBBgM4BCwcOAgNydW4AAwRoZWFwAwAKnR0DowEBBH9BASEPIABBBUECdGohDSANKAIAIQ4gDSAOIA9qNgIAIA4hDCAMQQBGBEAgAEEAQQJ0aiACNgIAIABBAUECdGogAzYCACAAQQJBAnRqIAQ2AgAgAEEDQQJ0aiAFNgIAIABBBEECdGogCSAKQQp0ciALQRR0cjYCACAAQQdBAnRqIAY2AgAgAEEIQQJ0aiAHNgIAIABBCUECdGogCDYCAAsLjhoRDn8BewJ/AnwGfwl7CX8LewF/AXsCfwp7Bn8BewJ/AnwEfyAMIA1sIA5sIR0CQEEAIRICQANAIBIgDk8NAQJAQQAhEQJAA0AgESANTw0BAkBBACEQIAy4ISFBASEgIAW4IAYgDGwgEGq3oSEiICAgBiAMbCAQarcgIaBEAAAAAAAA4EFlcSEgICJEAAAAAAAAAAClICGkqiEjICJEAAAAAAAA8MGgRAAAAAAAAAAApSAhpKohJEQAAAAAAAAAACAGIAxsIBBqt6EhIiAiRAAAAAAAAAAApSAhpKohJQJAA0AgECAMTw0BIAwhHyAQICNJICMgH0lxBEAgIyEfCyAQICRJICQgH0lxBEAgJCEfCyAQICVJICUgH0lxBEAgJSEfCyAgBEBBACAGIAxsIBBqIAVPckUEQEEAISYgJkEARgRAAkADQCAQQQRqIB9LDQEgEiANbCARaiAMbCAQaiEcAkAgBCAGIAxsIBBqQQJ0av0AAAAhHkGAgYCAACAcQQJ0aiAe/QsAAEGA5oCAACAcQQJ0aiAe/QsAACAQQQRqIRAMAQsMAQsLCwsFIAwhHwsCQANAIBAgH08NAQJAIBIgDWwgEWogDGwgEGohHCAcIA9BAWtxIRMCQCAGIAxsIBBqIAVPBEAgACABQQFBACAGIAxsIBBqIAUgBiAHIAggECARIBIQAQALIAQgBiAMbCAQakECdGooAgAhFUGAgYCAACAcQQJ0aiAVNgAAQYDmgIAAIBxBAnRqIBU2AAALCyAQQQFqIRAMAAsLDAALCwsgEUEBaiERDAALCwsgEkEBaiESDAALC0F/ISdBACESAkADQCASIA5PDQECQEEAIRECQANAIBEgDU8NAQJAQQAhEEEA/REhK/0MAAAAAAEAAAACAAAAAwAAACExAkADQCAQQQRqIAxLDQEgEiANbCARaiAMbCAQaiEcAkBBgOaAgAAgHEECdGr9AAAAISkgKyEqIBz9ESAx/a4BIS0gLSAPQQFr/RH9TiEuIC0gLv2xASEvIA/9ESAd/REgL/2xAf23ASEwIC/9GwAhMyAnIDNHBEAgMP0bACE0QQAhMkEAITUCQANAIDUgNE8NASAyQYCBgIAAIDMgNWpBAnRqKAIAaiEyIDVBAWohNQwACwsgMyEnIDIhKAsgKP0RISogL/0bASEzICcgM0cEQCAw/RsBITRBACEyQQAhNQJAA0AgNSA0Tw0BIDJBgIGAgAAgMyA1akECdGooAgBqITIgNUEBaiE1DAALCyAzIScgMiEoCyAqICj9HAEhKiAv/RsCITMgJyAzRwRAIDD9GwIhNEEAITJBACE1AkADQCA1IDRPDQEgMkGAgYCAACAzIDVqQQJ0aigCAGohMiA1QQFqITUMAAsLIDMhJyAyISgLICogKP0cAiEqIC/9GwMhMyAnIDNHBEAgMP0bAyE0QQAhMkEAITUCQANAIDUgNE8NASAyQYCBgIAAIDMgNWpBAnRqKAIAaiEyIDVBAWohNQwACwsgMyEnIDIhKAsgKiAo/RwDISogKiEsQYCjgIAAIBxBAnRqICn9CwAAQYCGgYAAIBxBAnRqICz9CwAAIBBBBGohEAwBCwwBCwsCQANAIBAgDE8NAQJAIBIgDWwgEWogDGwgEGohHCAcIA9BAWtxIRNBgOaAgAAgHEECdGooAAAhFUEAIRYCQCAcIA9BAWtxITYgHCA2ayE3IA8gHSA3ayAPIB0gN2tJGyE4ICcgN0cEQEEAITpBACE5AkADQCA5IDhPDQEgOkGAgYCAACA3IDlqQQJ0aigAAGohOiA5QQFqITkMAAsLIDchJyA6ISgLICghFiAWIRdBgKOAgAAgHEECdGogFTYAAEGAhoGAACAcQQJ0aiAXNgAACwsgEEEBaiEQDAALCwsgEUEBaiERDAALCwsgEkEBaiESDAALC0EAIRICQANAIBIgDk8NAQJAQQAhEQJAA0AgESANTw0BAkBBACEQQQD9ESE9/QwAAAAAAQAAAAIAAAADAAAAIUNBAP0RIUcCQANAIBBBBGogDEsNASASIA1sIBFqIAxsIBBqIRwCQEGA5oCAACAcQQJ0av0AAAAhOyA9ITwgHP0RIEP9rgEhPyA/IA9BAWv9Ef1OIUAgPyBA/bEBIUEgD/0RIB39ESBB/bEB/bcBIUJBAf0RIUQgQCBE/VEhRSBBIEX9rgEgPyBFIEL9Ov1SIUUgRf0bACFGIEUgRv0RIEP9rgH9N/2jAQRAQYCjgIAAIEZBAnRq/QAAACE8BUGAo4CAACBF/RsAQQJ0aigCAP0RITwgPEGAo4CAACBF/RsBQQJ0aigCAP0cASE8IDxBgKOAgAAgRf0bAkECdGooAgD9HAIhPCA8QYCjgIAAIEX9GwNBAnRqKAIA/RwDITwLIDwhPkGAxYCAACAcQQJ0aiA7IEf9O/2hAf0LAABBgKaBgAAgHEECdGogPv0LAAAgEEEEaiEQDAELDAELCwJAA0AgECAMTw0BAkAgEiANbCARaiAMbCAQaiEcIBwgD0EBa3EhE0GA5oCAACAcQQJ0aigAACEVQQAhGAJAIBwgD0EBa3EhOSAcIDlrITggDyAdIDhrIA8gHSA4a0kbITdBASE6IDkgOnMhNiA2IDdJBH9BgKOAgAAgOCA2akECdGooAAAFQYCjgIAAIBxBAnRqKAAACyEYIBghGUGAxYCAACAcQQJ0aiAVQQBKNgAAQYCmgYAAIBxBAnRqIBk2AAALCyAQQQFqIRAMAAsLCyARQQFqIREMAAsLCyASQQFqIRIMAAsLQX8hSEEAIRICQANAIBIgDk8NAQJAQQAhEQJAA0AgESANTw0BAkBBACEQQQD9ESFN/QwAAAAAAQAAAAIAAAADAAAAIVNB/wH9ESFaIAy4IV1BASFcIAO4IAYgDGwgEGq3oSFeIFwgBiAMbCAQarcgXaBEAAAAAAAA4EFlcSFcIF5EAAAAAAAAAAClIF2kqiFfIF5EAAAAAAAA8MGgRAAAAAAAAAAApSBdpKohYEQAAAAAAAAAACAGIAxsIBBqt6EhXiBeRAAAAAAAAAAApSBdpKohYQJAA0AgECAMTw0BIAwhWyAQIF9JIF8gW0lxBEAgXyFbCyAQIGBJIGAgW0lxBEAgYCFbCyAQIGFJIGEgW0lxBEAgYSFbCyBcBEBBACAGIAxsIBBqIANPckUEQEEAIWIgYkEARgRAAkADQCAQQQRqIFtLDQEgEiANbCARaiAMbCAQaiEcAkBBgIaBgAAgHEECdGr9AAAAIUpBgKaBgAAgHEECdGr9AAAAIUsgTSFMIE0hTiAc/REgU/2uASFPIE8gD0EBa/0R/U4hUCBPIFD9sQEhUSAP/REgHf0RIFH9sQH9twEhUiBR/RsAIVUgSCBVRwRAIFL9GwAhVkEAIVRBACFXAkADQCBXIFZPDQEgVEEBIFd0ciBUQYDFgIAAIFUgV2pBAnRqKAIAGyFUIFdBAWohVwwACwsgVSFIIFQhSQsgSf0RIUwgUf0bASFVIEggVUcEQCBS/RsBIVZBACFUQQAhVwJAA0AgVyBWTw0BIFRBASBXdHIgVEGAxYCAACBVIFdqQQJ0aigCABshVCBXQQFqIVcMAAsLIFUhSCBUIUkLIEwgSf0cASFMIFH9GwIhVSBIIFVHBEAgUv0bAiFWQQAhVEEAIVcCQANAIFcgVk8NASBUQQEgV3RyIFRBgMWAgAAgVSBXakECdGooAgAbIVQgV0EBaiFXDAALCyBVIUggVCFJCyBMIEn9HAIhTCBR/RsDIVUgSCBVRwRAIFL9GwMhVkEAIVRBACFXAkADQCBXIFZPDQEgVEEBIFd0ciBUQYDFgIAAIFUgV2pBAnRqKAIAGyFUIFdBAWohVwwACwsgVSFIIFQhSQsgTCBJ/RwDIUwgTCFOIAYgDGwgEGohWCACIFhBAnRqIVkgWSBKIEv9rgEgTiBa/U79rgEgHP0RIFP9rgEgD0EBa/0R/U79rgH9CwAAIBBBBGohEAwBCwwBCwsLCwUgDCFbCwJAA0AgECBbTw0BAkAgEiANbCARaiAMbCAQaiEcIBwgD0EBa3EhE0GAhoGAACAcQQJ0aigAACEXQYCmgYAAIBxBAnRqKAAAIRlBACEaQQAhGwJAIBwgD0EBa3EhNiAcIDZrITcgDyAdIDdrIA8gHSA3a0kbITggSCA3RwRAQQAhOkEAITkCQANAIDkgOE8NASA6QQEgOXRyIDpBgMWAgAAgNyA5akECdGooAAAbITogOUEBaiE5DAALCyA3IUggOiFJCyBJIRogGiEbIAYgDGwgEGogA08EQCAAIAFBAkEBIAYgDGwgEGogAyAGIAcgCCAQIBEgEhABAAsgAiAGIAxsIBBqQQJ0aiAXIBlqIBtB/wFxaiATajYCAAsLIBBBAWohEAwACwsMAAsLCyARQQFqIREMAAsLCyASQQFqIRIMAAsLCwvlAQEEf0GAgICAAEEAQYAi/AsAQYCigIAAQQBBgCL8CwBBgMSAgABBAEGAIvwLAEGA5oCAAEEAQYAg/AsAQYCGgYAAQQBBgCD8CwBBgKaBgABBAEGAIPwLACANIA5PBEAPCyANIRIgDSAGcCEPIA0gBm4gB3AhECANIAZuIAduIRECQANAIBIgDk8NASAAIAEgAiADIAQgBSAPIBAgESAGIAcgCCAJIAogCyAMEAIgEkEBaiESIA9BAWohDyAPIAZGBEBBACEPIBBBAWohECAQIAdGBEBBACEQIBFBAWohEQsLDAALCwsAZQxncHVjLnRocmVhZHNzK7oFzAXfBvAGjgiBCdoJtgqSC8gL2guhDPcMqA25DdUO2A/rD4MQnBC1ENEQ6hCxEf0RkBKmEroSyBXaFdkWuheeGIIZtBrFGqcb1xzlHPMcgR2PHZ0d";
