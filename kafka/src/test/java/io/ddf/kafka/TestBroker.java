package io.ddf.kafka;

import kafka.testkit.KafkaClusterTestKit;
import kafka.testkit.TestKitNodes;

import java.util.Map;

/**
 * A one-node KRaft broker (combined with its controller) in this JVM, from Kafka's own test kit, configured for
 * one broker: internal topics of one replica and few partitions, no initial rebalance delay.
 */
public final class TestBroker
{
    private TestBroker()
    {
    }

    /**
     * @param port the broker's port (the controller takes the next), or 0 for ephemeral ports.
     * @return the broker, formatted and started, ready.
     * @throws Exception when it cannot start.
     */
    public static KafkaClusterTestKit start(final int port) throws Exception
    {
        final TestKitNodes.Builder nodes = new TestKitNodes.Builder().setCombined(true).setNumBrokerNodes(1)
            .setNumControllerNodes(1);
        if (port > 0)
        {
            nodes.setPerServerProperties(Map.of(0, Map.of("listeners",
                "EXTERNAL://localhost:" + port + ",CONTROLLER://localhost:" + (port + 1))));
        }
        final KafkaClusterTestKit cluster = new KafkaClusterTestKit.Builder(nodes.build())
            .setConfigProp("offsets.topic.replication.factor", "1")
            .setConfigProp("offsets.topic.num.partitions", "4")
            .setConfigProp("transaction.state.log.replication.factor", "1")
            .setConfigProp("transaction.state.log.min.isr", "1")
            .setConfigProp("transaction.state.log.num.partitions", "4")
            .setConfigProp("group.initial.rebalance.delay.ms", "0")
            .build();
        try
        {
            cluster.format();
            cluster.startup();
            cluster.waitForReadyBrokers();
            return cluster;
        }
        catch (final Exception e)
        {
            cluster.close();
            throw e;
        }
    }
}
