// Run by the build after the example (see ../pom.xml): what it printed, and what it depends on.
def log = new File(basedir, 'build.log').text
['3 sensors: [DUMMY_0, DUMMY_1, DUMMY_2]', 'DUMMY_0 read: 42 OK', 'DUMMY_0 stream #0: 42',
 'DUMMY_0 stream #2: 42'].each {
    assert log.contains(it): "the example did not print '${it}'"
}

def tree = new File(basedir, 'dependency-tree.txt').readLines()
def coords = tree.collect { (it =~ /([\w.\-]+):([\w.\-]+):jar:/) }.findAll { it.find() }
        .collect { it.group(1) + ':' + it.group(2) }
def bindings = coords.findAll {
    it in ['org.slf4j:slf4j-simple', 'org.slf4j:slf4j-jdk14', 'org.slf4j:slf4j-nop', 'org.slf4j:slf4j-reload4j',
           'org.slf4j:slf4j-log4j12', 'ch.qos.logback:logback-classic', 'org.apache.logging.log4j:log4j-slf4j2-impl',
           'org.apache.logging.log4j:log4j-slf4j-impl']
}
assert bindings.isEmpty(): "a logging binding reached the example: ${bindings}"
def salgate = coords.findAll { it.startsWith('org.salgate:') }.collect { it - 'org.salgate:' } as Set
def expected = ['salgate-agent-core', 'salgate-client-core', 'salgate-transport-netty', 'salgate-plugin-dummy',
                'salgate-model', 'salgate-sensorml', 'salgate-plugin-spi', 'salgate-transport-spi', 'salgate-wire',
                'salgate-tls'] as Set
assert salgate == expected: "salgate modules in the tree: ${salgate}, expected ${expected}"
assert !coords.contains('info.picocli:picocli'): 'the CLI parser reached the example'
println "the example's dependency tree: ${coords.size()} jars, salgate modules ${salgate.sort()}, no logging binding"

// docs/embedding.md shows this example's pom and source as they are, so that what a reader copies
// is what this build compiled and ran.
def pageText = new File(readme).text
def pom = new File(basedir, 'pom.xml').text
def project = pom.substring(pom.indexOf('<project'), pom.indexOf('</project>') + '</project>'.length())
assert pageText.contains(project): 'docs/embedding.md does not show embedding/pom.xml (<project> to </project>) as it is'
def source = new File(basedir, 'src/main/java/org/example/embedding/EmbeddingExample.java').text
assert pageText.contains(source.trim()): 'docs/embedding.md does not show EmbeddingExample.java as it is'
return true
