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

function table($state, out, $gx, $gy, $gz, $dx, $dy, $dz, $b0, $b1) {
  let $bx0 = 0, $by0 = 0, $bz0 = 0; if ($b1 === undefined) { $b0 = 0; $b1 = $gx * $gy * $gz; } else { $bx0 = $b0 % $gx; $by0 = Math.floor($b0 / $gx) % $gy; $bz0 = Math.floor(Math.floor($b0 / $gx) / $gy); }
  for (let $b = $b0, $bx = $bx0, $by = $by0, $bz = $bz0; $b < $b1; $b++) {
    for (let $tz = 0; $tz < $dz; $tz++)
    for (let $ty = 0; $ty < $dy; $ty++)
    for (let $tx = 0; $tx < $dx; $tx++) {
      let i = 0, tmp = 0;
      i = $tx;
      tmp = (i % 3) | 0;
      if ((i >>> 0) >= (out.length >>> 0)) {
        gpuc_report_exception$0($state, 2, 0, i, out.length, $bx, $by, $bz, $tx, $ty, $tz);
        throw $trap;
      }
      out[i] = Math.fround($g0_WEIGHTS[tmp] * 3);
    }
    if (++$bx === $gx) { $bx = 0; if (++$by === $gy) { $by = 0; $bz++; } }
  }
}

const $wasm = "AGFzbQEAAAAADQtncHVjLnByZWZlcgEBMQNgDH9/f39/f39/f39/fwBgDn9/f39/f39/f39/f39/AGANf39/f39/f39/f39/fwACEAEBbQZtZW1vcnkCAQGAgAQDBAMAAQIGDAJ/AEEAC38AQZAICwcXAwNydW4AAgZ0YWJsZTADAARoZWFwAwEKyggDowEBBH9BASEPIABBBUECdGohDSANKAIAIQ4gDSAOIA9qNgIAIA4hDCAMQQBGBEAgAEEAQQJ0aiACNgIAIABBAUECdGogAzYCACAAQQJBAnRqIAQ2AgAgAEEDQQJ0aiAFNgIAIABBBEECdGogCSAKQQp0ciALQRR0cjYCACAAQQdBAnRqIAY2AgAgAEEIQQJ0aiAHNgIAIABBCUECdGogCDYCAAsLkwYJCH8HewF/AnsCfwJ7An8CfAR/IAogC2wgDGwhFQJAQQAhEAJAA0AgECAMTw0BAkBBACEPAkADQCAPIAtPDQECQEEAIQ5BAP0RIRf9DAAAAAABAAAAAgAAAAMAAAAhGUED/REhG0MAAEBA/RMhIyAKuCEmQQEhJSADuCAOt6EhJyAlIA63ICagRAAAAAAAAOBBZXEhJSAnRAAAAAAAAAAApSAmpKohKCAnRAAAAAAAAPDBoEQAAAAAAAAAAKUgJqSqISlEAAAAAAAAAAAgDrehIScgJ0QAAAAAAAAAAKUgJqSqISoCQANAIA4gCk8NASAKISQgDiAoSSAoICRJcQRAICghJAsgDiApSSApICRJcQRAICkhJAsgDiAqSSAqICRJcQRAICohJAsgJQRAQQAgDiADT3JFBEBBACErICtBAEYEQAJAA0AgDkEEaiAkSw0BIBAgC2wgD2ogCmwgDmohFAJAIBchFiAO/REgGf2uASEYIBshGkEDIR0gHUEBa/0RIR4gHUEASiAdIB1BAWtxRXEEQCAYIBhBH/2sASAe/U79rgEgHWj9rAEhHyAYIB8gHWj9qwH9sQEhHAUgGP0bACAa/RsAb/0RIRwgHCAY/RsBIBr9GwFv/RwBIRwgHCAY/RsCIBr9GwJv/RwCIRwgHCAY/RsDIBr9GwNv/RwDIRwLIBwhFiAOISAgAiAgQQJ0aiEhICEgFiEiIBdBACAi/RsAQQJ0aigCAP0cAEEAICL9GwFBAnRqKAIA/RwBQQAgIv0bAkECdGooAgD9HAJBACAi/RsDQQJ0aigCAP0cAyAj/eYB/QsAACAOQQRqIQ4MAQsMAQsLCwsFIAohJAsCQANAIA4gJE8NAQJAIBAgC2wgD2ogCmwgDmohFEEAIRMCQCAOQQNvIRMgDiADTwRAIAAgAUECQQAgDiADIAQgBSAGIA4gDyAQEAAACyACIA5BAnRqQQAgE0ECdGoqAgBDAABAQJQ4AgALCyAOQQFqIQ4MAAsLDAALCwsgD0EBaiEPDAALCwsgEEEBaiEQDAALCwsLjQEBBH8gCyAMTwRADwsgCyEQIAsgBHAhDSALIARuIAVwIQ4gCyAEbiAFbiEPAkADQCAQIAxPDQEgACABIAIgAyANIA4gDyAEIAUgBiAHIAggCSAKEAEgEEEBaiEQIA1BAWohDSANIARGBEBBACENIA5BAWohDiAOIAVGBEBBACEOIA9BAWohDwsLDAALCwsADwxncHVjLnRocmVhZHNXAA==";
