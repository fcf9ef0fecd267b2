#if canImport(Combine)
import Combine

/// Combine's `Subscription` protocol, named apart from Sesame's ``Subscription`` class.
typealias CombineSubscription = Combine.Subscription
#else
import OpenCombine

/// OpenCombine's `Subscription` protocol, named apart from Sesame's `Subscription` class.
typealias CombineSubscription = OpenCombine.Subscription
#endif
