import json,sys,glob,collections
f=glob.glob('/tmp/lab/pre/prof/*.cpuprofile')[0]
d=json.load(open(f))
nodes={n['id']:n for n in d['nodes']}
parent={}
for n in d['nodes']:
  for c in n.get('children',[]): parent[c]=n['id']
def chain(i):
  out=[]
  while i in nodes:
    out.append(nodes[i]['callFrame']['functionName'] or '(anon)'); i=parent.get(i)
  return out
samples=d['samples']; deltas=d['timeDeltas']
self_=collections.Counter(); incl=collections.Counter(); tot=0
for s,dt in zip(samples,deltas):
  c=chain(s)
  if 'backgroundStep' not in c: continue
  tot+=dt
  self_[c[0]]+=dt
  for fn in set(c): incl[fn]+=dt
print('total under backgroundStep ms', tot/1000)
for k,v in self_.most_common(25): print('self', k, round(v/1000,1))
for k,v in incl.most_common(25): print('incl', k, round(v/1000,1))
