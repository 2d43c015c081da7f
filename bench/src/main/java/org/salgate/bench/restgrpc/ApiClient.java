package org.salgate.bench.restgrpc;

/** One client of one of the two APIs, on one kept-open connection, calling from one thread. */
interface ApiClient extends AutoCloseable {

    /**
     * Makes one call and reads its answer into objects, as an application would.
     *
     * @return a size that shows the answer is the whole one: the sensors listed, 1 for a reading
     *         of the sensor, the document's characters
     * @throws Exception if the call fails or the answer is not what the operation returns
     */
    int call(Operation op) throws Exception;

    @Override
    void close();
}
