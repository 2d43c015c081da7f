/**
 * Wire codecs beyond the built-in protobuf one, registered for {@link java.util.ServiceLoader}:
 * {@code json}, {@code msgpack}, {@code xml}, {@code java}, and {@code NAME+gzip} around each of
 * them and protobuf.
 */
package org.salgate.codec;
