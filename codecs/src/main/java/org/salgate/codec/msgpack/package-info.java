/** The MessagePack codec. */
package org.salgate.codec.msgpack;
