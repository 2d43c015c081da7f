/**
 * The wire formats applied to the studies' application objects: protobuf from {@code bench.proto},
 * Jackson data binding for JSON, XML and MessagePack, StAX and DOM parse paths for XML, Java
 * serialization behind an allow-list filter, and gzip around each.
 */
package org.salgate.bench.codec.format;
