package org.salgate.transport.http;

import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.util.ReferenceCountUtil;

/**
 * A request refused from its headers, passed down the pipeline in its place so that its answer
 * goes out in order behind those of the requests before it (HTTP/1.1 pipelining).
 *
 * @param answer the answer; it must not have a body if the request was a HEAD
 * @param close whether the connection closes after it: the request's body was not read, or its
 *              framing cannot be trusted
 */
record Refusal(FullHttpResponse answer, boolean close) {

    void release() {
        ReferenceCountUtil.release(answer);
    }
}
