"""README's tables in "Latest results: synchronous calls" from the reports of one
docs/bench/sync-against-rmi.sh run: the Integer RTT per client count, the paired ratios, the Object
and String pairs at 10-100 clients (as lines), and the agent's sensor list.
  python3 docs/bench/readme-tables.py OUT_DIR"""
import re,sys
base=sys.argv[1]
def rows(path):
    return [l.rstrip('\n') for l in open(path) if l.startswith('|')]
order=['raw-socket','rmi','netty','mina','xsocket','socket','http','grpc']
rtt={}
paired={}
for rep in ['transport-1-client','transport-10-100-clients','transport-30-70-clients']:
    for l in rows(f'{base}/{rep}/report.md'):
        c=[x.strip() for x in l.strip('|').split('|')]
        if len(c)==10 and c[1]=='Integer' and c[0] in order and re.match(r'^\d+$',c[2]):
            rtt[(c[0],int(c[2]))]=c[3]
        if len(c)==7 and c[1]=='rtt' and c[4]=='mean_us':
            paired[(c[0],c[2],int(c[3]))]=f'{c[5]}, {c[6]}'
print('| clients | ceiling (Java sockets) | RMI | Netty | MINA | xSocket | blocking socket | HTTP | gRPC |')
print('|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
for n in [1,10,30,70,100]:
    print(f'| {n} | '+' | '.join(rtt.get((t,n),'?') for t in order)+' |')
print()
print('| clients | payload | Netty | MINA | xSocket | blocking socket | HTTP | gRPC |')
print('|---:|---|---:|---:|---:|---:|---:|---:|')
for n,ty,label in [(1,'Integer','Integer'),(1,'Object','Object'),(1,'String','String (3408 B)')]+[(n,'Integer','Integer') for n in [10,30,70,100]]:
    print(f'| {n} | {label} | '+' | '.join(paired.get((t,ty,n),'?') for t in ['netty','mina','xsocket','socket','http','grpc'])+' |')
print()
for n,ty in [(n,ty) for n in [10,30,70,100] for ty in ['Object','String']]:
    print(n,ty,' '.join(f'{t}={paired.get((t,ty,n),"?")}' for t in ['netty','mina','xsocket','socket','http','grpc']))
# agent
ag={}
pa={}
for l in rows(f'{base}/agent/report.md'):
    c=[x.strip() for x in l.strip('|').split('|')]
    if len(c)==7 and c[1]=='sensor list' and re.match(r'^\d+$',c[2]):
        ag[(c[0],int(c[2]))]=c[6]
    if len(c)==7 and c[1]=='agent_sync' and c[4]=='calls_per_s':
        pa[(c[0],int(c[3]))]=f'{c[5]}, {c[6]}'
def fmt(v):
    m=re.match(r'([\d.]+) \[([\d.]+)-([\d.]+)\]',v)
    return '{:,.0f} [{:,.0f}-{:,.0f}]'.format(*map(float,m.groups())) if m else v
print()
ts=['rmi','netty','mina','xsocket','socket','http','grpc']
print('| clients | RMI | Netty | MINA | xSocket | blocking socket | HTTP | gRPC |')
print('|---:|---:|---:|---:|---:|---:|---:|---:|')
for n in [1,10,100]:
    print(f'| {n} | '+' | '.join(fmt(ag.get((t,n),'?')) for t in ts)+' |')
    print(f'| paired, {n} | 1 | '+' | '.join(pa.get((t,n),'?') for t in ts[1:])+' |')
