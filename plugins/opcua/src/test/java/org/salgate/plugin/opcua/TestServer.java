package org.salgate.plugin.opcua;

/** An OPC UA server a test starts, stops and starts again on the same endpoint. */
interface TestServer extends AutoCloseable {

    /** Its endpoint URL, {@code opc.tcp://127.0.0.1:PORT/PATH}. */
    String url();

    void start() throws Exception;

    void stop() throws Exception;
}
