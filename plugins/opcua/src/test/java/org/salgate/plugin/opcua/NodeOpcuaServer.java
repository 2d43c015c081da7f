package org.salgate.plugin.opcua;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The third-party OPC UA server of the devices tests: node-opcua-server (npm), run by
 * {@code src/test/node/opcua_server.js} on a loopback port with a PKI directory of its own. The
 * npm package is looked for in {@code -Dopcua.node.modules} (default
 * {@code target/node-opcua/node_modules}, where .ci/run installs it).
 */
final class NodeOpcuaServer implements TestServer {

    private final int port;
    private final Path pki;
    private Process process;
    private Path certificate;

    NodeOpcuaServer(Path pki) throws IOException {
        this.pki = pki;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            this.port = s.getLocalPort();
        }
    }

    int port() {
        return port;
    }

    @Override
    public String url() {
        return "opc.tcp://127.0.0.1:" + port + "/salgate";
    }

    /** The server's certificate file (PEM), made by the server at its first start. */
    Path certificate() {
        return certificate;
    }

    /** Trusts a client certificate (DER): the server takes it at its next start. */
    void trust(Path clientCertificateDer) throws IOException {
        Path dir = Files.createDirectories(pki.resolve("trusted").resolve("certs"));
        Files.copy(clientCertificateDer, dir.resolve("salgate-client.der"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public void start() throws Exception {
        Path modules = Path.of(System.getProperty("opcua.node.modules", "target/node-opcua/node_modules"))
                .toAbsolutePath();
        if (!Files.isDirectory(modules.resolve("node-opcua-server"))) {
            throw new IllegalStateException("node-opcua-server is not installed in " + modules + "; run"
                    + " 'npm install --prefix target/node-opcua node-opcua-server@2.186' (as .ci/run does)");
        }
        ProcessBuilder b = new ProcessBuilder("node", Path.of("src/test/node/opcua_server.js").toAbsolutePath()
                .toString(), Integer.toString(port), pki.toString());
        b.environment().put("NODE_PATH", modules.toString());
        b.redirectErrorStream(true);
        process = b.start();
        CompletableFuture<Path> ready = new CompletableFuture<>();
        Process p = process;
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (line.startsWith("ready ")) {
                        ready.complete(Path.of(line.substring(6).strip()));
                    }
                }
                ready.completeExceptionally(new IllegalStateException("node-opcua-server exited"));
            } catch (IOException e) {
                ready.completeExceptionally(e);
            }
        }, "node-opcua-server output");
        reader.setDaemon(true);
        reader.start();
        certificate = ready.get(60, TimeUnit.SECONDS);
    }

    @Override
    public void stop() throws InterruptedException {
        if (process != null) {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
            process = null;
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
