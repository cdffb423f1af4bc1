# Top frames (self samples) per thread of a `jfr print --events jdk.ExecutionSample` dump; the main thread counts
# only while inside FilterPipeline (publishing). Usage: python3 bench/scripts/jfr_top.py dump.txt
import re,collections,sys
txt=open(sys.argv[1]).read()
ev=txt.split('jdk.ExecutionSample')
top=collections.Counter(); bythread=collections.Counter()
for e in ev[1:]:
    m=re.search(r'sampledThread = "([^"]+)"',e); th=m.group(1) if m else '?'
    frames=re.findall(r'^\s+([\w.$<>]+\.[\w$<>]+)\(',e,re.M)
    if not frames: continue
    if th=='main' and not any('FilterPipeline' in f for f in frames): continue
    th = 'main(publishing)' if th=='main' else ('handler' if th.startswith('ddf-pipeline') else th)
    top[(th,frames[0].split('.')[-2]+'.'+frames[0].split('.')[-1])]+=1; bythread[th]+=1
print(dict(bythread))
for k,v in top.most_common(14): print(f"{v:5d} {100*v/bythread[k[0]]:5.1f}% {k[0]} {k[1]}")
