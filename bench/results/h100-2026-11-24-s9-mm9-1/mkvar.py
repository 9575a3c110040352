import re,sys
src=open(sys.argv[1]).read()
mode=sys.argv[2]
def find_block(s, start):
    # s[start] == '{' ; return index after matching '}'
    d=0
    for i in range(start,len(s)):
        if s[i]=='{': d+=1
        elif s[i]=='}':
            d-=1
            if d==0: return i+1
    raise Exception
out=src
if 'notail' in mode:
    # replace "if (k_tile + depth <= m) {BODY} else {TAIL}" by BODY
    while True:
        i=out.find('if (k_tile + depth <= m) {')
        if i<0: break
        b=out.index('{',i); e=find_block(out,b)
        body=out[b+1:e-1]
        assert out[e:e+7]==' else {', out[e:e+20]
        e2=find_block(out,e+6)
        out=out[:i]+'{'+body+'}'+out[e2:]
if 'fast' in mode:
    # interior fetch fast path + vector B put
    pre=None
    for pfx,sfx in [('MM_','')]:
        pass
    parts=re.split(r'(__global__ void)',out)
    res=parts[0]
    for k in range(1,len(parts),2):
        body=parts[k]+parts[k+1]
        m=re.search(r'__launch_bounds__\((MM_\w*?)BLOCKSIZE\)',body); P=m.group(1)
        fetch_start=body.find('    if (k_tile + depth < m) {\n      #pragma unroll\n      for (int v = 0; v < a_quads; v++) {')
        assert fetch_start>0
        fast=f'''    if (A_vec && B_vec && row0 + block_rows <= n && col0 + block_cols <= p && k_tile + 2 * depth <= m) {{
      #pragma unroll
      for (int v = 0; v < a_quads; v++) {{
        int t = (int)threadIdx.x + v * {P}BLOCKSIZE;
        if (t * 4 < block_rows_x_depth)
          rtcuda_load4(&A_next[v * 4], A[(row0 + 4 * t / depth) * m + k_tile + depth + 4 * t % depth]);
      }}
      #pragma unroll
      for (int v = 0; v < b_quads; v++) {{
        int t = (int)threadIdx.x + v * {P}BLOCKSIZE;
        if (t * 4 < depth_x_block_cols)
          rtcuda_load4(&B_next[v * 4], B[(k_tile + depth + 4 * t / block_cols) * p + col0 + 4 * t % block_cols]);
      }}
    }} else
'''
        body=body[:fetch_start]+fast+body[fetch_start:]
        old='''          if (t * 4 + e < depth_x_block_cols) {
            B_tile[(1 - stage) * depth_x_block_cols + r * block_cols + q] = B_next[v * 4 + e];
          }
        }'''
        assert old in body
        # replace the whole B put loop (in-loop) with vector store when block_cols%4==0
        i=body.index(old)
        # find start of that "#pragma unroll\n      for (int v = 0; v < b_quads" before i
        j=body.rfind('      #pragma unroll\n      for (int v = 0; v < b_quads; v++) {',0,i)
        e=find_block(body, body.index('{',j))
        newput=f'''      #pragma unroll
      for (int v = 0; v < b_quads; v++) {{
        int t = (int)threadIdx.x + v * {P}BLOCKSIZE;
        if (t * 4 < depth_x_block_cols)
          *(float4 *)&B_tile[(1 - stage) * depth_x_block_cols + t * 4] = make_float4(B_next[v * 4], B_next[v * 4 + 1], B_next[v * 4 + 2], B_next[v * 4 + 3]);
      }}'''
        body=body[:j]+newput+body[e:]
        res+=body
    out=res
open(sys.argv[3],'w').write(out)
